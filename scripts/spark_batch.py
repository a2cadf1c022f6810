#!/usr/bin/env python3
"""Renders a blurlabel manifest on Apache Spark through RDD.pipe.

Every partition of the manifest is piped through `blurlabel batch - --out DIR`, which reads
JSON lines on standard input and answers one JSON result per line on standard output (its
"line" numbers count within the partition). Outputs named twice are refused before anything is
rendered. Local mode by default; any cluster with --master (every executor needs the blurlabel
binary at the same path and DIR on a shared file system).

    python3 scripts/spark_batch.py manifest.jsonl --out labels/ [--master local[*]] [--partitions N]
"""
import argparse, json, os, shlex, sys
from operator import add


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("manifest", help="JSON-lines manifest (any path Spark can read)")
    parser.add_argument("--out", required=True, help="folder for the PNGs")
    parser.add_argument("--master", default="local[*]", help="Spark master URL (default local[*])")
    parser.add_argument("--partitions", type=int, default=None, help="minimum number of partitions")
    parser.add_argument("--blurlabel", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "ship", "bin", "blurlabel"),
                        help="path of the blurlabel binary on every executor")
    parser.add_argument("--jobs", type=int, default=1, help="threads per blurlabel process (default 1: Spark runs one per core)")
    args = parser.parse_args()

    from pyspark.sql import SparkSession
    spark = SparkSession.builder.master(args.master).appName("blurlabel-batch").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        lines = spark.sparkContext.textFile(args.manifest, minPartitions=args.partitions).filter(lambda l: l.strip())

        def output_of(line):
            try:
                return json.loads(line).get("output")
            except (ValueError, AttributeError):
                return None

        duplicates = (lines.map(output_of).filter(lambda o: o is not None).map(lambda o: (o, 1))
                      .reduceByKey(add).filter(lambda kv: kv[1] > 1).take(20))
        if duplicates:
            for name, count in duplicates:
                print(f"spark_batch: output '{name}' is named by {count} lines", file=sys.stderr)
            print("spark_batch: duplicate outputs; nothing rendered", file=sys.stderr)
            return 2

        os.makedirs(args.out, exist_ok=True)
        command = [os.path.abspath(args.blurlabel), "batch", "-", "--out", os.path.abspath(args.out), "--jobs", str(args.jobs)]
        results = lines.pipe(" ".join(shlex.quote(c) for c in command)).map(json.loads).cache()
        counts = dict(results.map(lambda r: (r.get("ok", False), 1)).reduceByKey(add).collect())
        failures = results.filter(lambda r: not r.get("ok", False)).take(20)
        for failure in failures:
            print(f"spark_batch: {failure.get('output', '?')}: {failure.get('error')}", file=sys.stderr)
        print(f"spark_batch: rendered {counts.get(True, 0)}, failed {counts.get(False, 0)} with {results.getNumPartitions()} partitions on {args.master}")
        return 0 if counts.get(False, 0) == 0 else 2
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
