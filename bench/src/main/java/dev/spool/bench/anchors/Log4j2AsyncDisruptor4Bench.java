package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Fork;

/**
 * Log4j2 all-async loggers on Disruptor 4.0: the build copies disruptor 4 to
 * {@code bench/target/anchors/disruptor-4.jar}, and this fork appends it to the boot class path,
 * where class loading finds it before the 3.4.4 classes inside the benchmark jar (same package
 * names). Run from the repository root. The version actually loaded is checked. Its loss is
 * reported, not failed on.
 */
@Fork(value = 1, jvmArgsAppend = {
    "-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
    "-Xbootclasspath/a:bench/target/anchors/disruptor-4.jar"})
public class Log4j2AsyncDisruptor4Bench extends AnchorBench {

    @Override
    protected String contender() {
        Log4j2Lines.requireDisruptor(4);
        return "log4j2AsyncDisruptor4";
    }
}
