#!/usr/bin/env python3
"""The Spark half of scripts/spark/spark-check, in one Spark session (the JVM's start is most of the
check's time): scripts/spark/spark_batch.py's main is called twice, and leaves a session it did not
make running.

  1. MANIFEST in 4 partitions on local[2], all writing into OUT: exit 0 wanted.
  2. The same with a child that answers three lines of its partition and is then killed:
     spark_batch must fail (non-zero) and name how many lines have no result.

    spark_check.py MANIFEST OUT BLURLABEL DYING_BLURLABEL SCRATCH
"""
import contextlib, io, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spark_batch  # noqa: E402


def main(manifest, out, blurlabel, dying, scratch):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("spark-check")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    # Its functions are pickled by module name: the workers need the module.
    spark.sparkContext.addPyFile(spark_batch.__file__)
    try:
        common = [manifest, "--master", "local[2]", "--partitions", "4"]
        status = spark_batch.main(common + ["--out", out, "--blurlabel", blurlabel])
        if status != 0:
            return f"spark-check: spark_batch exited {status}"
        said = io.StringIO()
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            status = spark_batch.main(common + ["--out", scratch, "--blurlabel", dying])
        text = said.getvalue()
        lost = re.search(r"^spark_batch: FAILED: [0-9]+ of [0-9]+ lines have no result", text, re.M)
        named = re.search(r"partition [0-9]+: [0-9]+ lines, 3 results: [0-9]+ line\(s\) lost "
                          r"\(the child exited with status 137\)", text)
        if status == 0 or not lost or not named:
            return f"spark-check: spark_batch with a dying child exited {status} without naming the lost lines:\n{text}"
        print(f"spark-check: a dying child fails spark_batch (exit {status}): {lost.group(0)}")
        return None
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
