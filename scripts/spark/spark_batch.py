#!/usr/bin/env python3
"""Renders a blurlabel manifest on Apache Spark through RDD.pipe.

Every partition of the manifest is piped through `blurlabel batch - --out DIR`, which reads
JSON lines on standard input and answers one JSON result per line on standard output (its
"line" numbers count within the partition). All partitions write into DIR at once; each output
is whole and published only where nothing has its name (see docs/batch-concurrency.md).
Outputs named twice are refused before anything is rendered. Local mode by default; any cluster
with --master (every executor needs the blurlabel binary at the same path and DIR on a shared
file system). A task that Spark retries finds the outputs its first attempt wrote holding the
same bytes, and those lines are done; --resume skips them without rendering them again.

Nothing is lost quietly: the results of every partition are counted against its input lines,
and Spark checks each child's exit status (checkCode=True). A partition whose child died, or
answered fewer lines than it was given, fails the run (exit 1) with the missing count named.
Lines that blurlabel refused are listed and make the exit status 2.

    python3 scripts/spark/spark_batch.py manifest.jsonl --out labels/ [--master local[*]] [--partitions N]
"""
import argparse, json, os, re, shlex, sys
from operator import add

# blurlabel's exit status 2 means "some lines failed" (or "could not start"), and then every line
# has its result, counted below; any other non-zero status (killed, crashed) is Spark's to see.
STATUS_FILTER = '"$0" "$@"; s=$?; if [ "$s" -eq 2 ]; then s=0; fi; exit "$s"'


def tally_partition(index, results):
    """Counts one partition's results; catches the child's failure (checkCode) so it is reported
    with the counts instead of as a bare task failure."""
    count = ok = skipped = failed = broken = 0
    in_order = True
    failures = []
    error = None
    try:
        for text in results:
            try:
                result = json.loads(text)
                line = result["line"]
            except (ValueError, TypeError, KeyError):
                broken += 1
                continue
            count += 1
            if line != count:
                in_order = False
            if result.get("ok", False):
                ok += 1
                skipped += 1 if result.get("skipped") else 0
            else:
                failed += 1
                if len(failures) < 20:
                    failures.append((line, result.get("output", "?"), result.get("error")))
    except Exception as e:  # the child's exit status (checkCode) or a broken pipe
        code = re.search(r"exited with error code (-?[0-9]+)", str(e))
        error = f"the child exited with status {code.group(1)}" if code else " ".join(str(e).split())[:300]
    yield {"partition": index, "results": count, "ok": ok, "skipped": skipped, "failed": failed,
           "broken": broken, "in_order": in_order, "failures": failures, "error": error}


def count_partition(index, lines):
    yield (index, sum(1 for _ in lines))


def check(expected, tallies):
    """The problems that make the run fail: partitions with lines and no result."""
    problems = []
    for index in sorted(expected):
        tally = tallies.get(index)
        lines = expected[index]
        got = tally["results"] if tally else 0
        why = f" ({tally['error']})" if tally and tally["error"] else ""
        if got != lines:
            problems.append(f"partition {index}: {lines} lines, {got} results: {lines - got} line(s) lost{why}")
        elif why:
            problems.append(f"partition {index}: the child failed{why}")
        if tally and not tally["in_order"]:
            problems.append(f"partition {index}: results out of order")
        if tally and tally["broken"]:
            problems.append(f"partition {index}: {tally['broken']} result line(s) are not JSON")
    return problems


def main(argv=None):
    """Runs the command line `argv` (sys.argv's by default). In a process that already has a
    Spark session (a notebook, a test driver), that session is used and left running."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("manifest", help="JSON-lines manifest (any path Spark can read)")
    parser.add_argument("--out", required=True, help="folder for the PNGs")
    parser.add_argument("--master", default="local[*]", help="Spark master URL (default local[*])")
    parser.add_argument("--partitions", type=int, default=None, help="minimum number of partitions")
    parser.add_argument("--blurlabel", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "ship", "bin", "blurlabel"),
                        help="path of the blurlabel binary on every executor")
    parser.add_argument("--jobs", type=int, default=1, help="threads per blurlabel process (default 1: Spark runs one per core)")
    existing = parser.add_mutually_exclusive_group()
    existing.add_argument("--resume", action="store_true", help="skip outputs that already exist")
    existing.add_argument("--force", action="store_true", help="render outputs that already exist again")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession
    ours = SparkSession.getActiveSession() is None
    spark = (SparkSession.builder.master(args.master).appName("blurlabel-batch")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        lines = spark.sparkContext.textFile(args.manifest, minPartitions=args.partitions).filter(lambda l: l.strip()).cache()

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

        expected = dict(lines.mapPartitionsWithIndex(count_partition).collect())
        os.makedirs(args.out, exist_ok=True)
        command = [os.path.abspath(args.blurlabel), "batch", "-", "--out", os.path.abspath(args.out), "--jobs", str(args.jobs)]
        command += ["--resume"] if args.resume else ["--force"] if args.force else []
        piped = lines.pipe(" ".join(shlex.quote(c) for c in ["sh", "-c", STATUS_FILTER] + command), checkCode=True)
        tallies = {t["partition"]: t for t in piped.mapPartitionsWithIndex(tally_partition).collect()}

        for tally in tallies.values():
            for line, output, error in tally["failures"]:
                print(f"spark_batch: partition {tally['partition']} line {line}: {output}: {error}", file=sys.stderr)
        total = sum(expected.values())
        ok = sum(t["ok"] for t in tallies.values())
        skipped = sum(t["skipped"] for t in tallies.values())
        failed = sum(t["failed"] for t in tallies.values())
        print(f"spark_batch: rendered {ok - skipped}, skipped {skipped}, failed {failed} of {total} lines "
              f"with {len(expected)} partitions on {args.master}")
        problems = check(expected, tallies)
        if problems:
            for problem in problems:
                print(f"spark_batch: {problem}", file=sys.stderr)
            lost = total - sum(t["results"] for t in tallies.values())
            print(f"spark_batch: FAILED: {lost} of {total} lines have no result", file=sys.stderr)
            return 1
        return 0 if failed == 0 else 2
    finally:
        if ours:
            spark.stop()


if __name__ == "__main__":
    sys.exit(main())
