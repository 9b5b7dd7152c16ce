package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Fork;

/** Log4j2 all-async loggers on Disruptor 3.4.4 with the realistic layouts (lossless: a lost line fails the run). */
@Fork(value = 1, jvmArgsAppend = "-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector")
public class LayoutAnchorLog4j2AsyncBench extends LayoutAnchorBase {

    @Override
    protected String contender() {
        Log4j2Lines.requireDisruptor(3);
        return "log4j2Async";
    }
}
