package dev.spool.bench.anchors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Logback contenders, each with its own {@link LoggerContext} (pattern {@code %msg%n}):
 * <ul>
 *   <li>{@link #asyncLossless}: {@code AsyncAppender} ({@code discardingThreshold=0},
 *       {@code neverBlock=false}, queue size default 256) over a {@code FileAppender} with
 *       {@code immediateFlush=false};</li>
 *   <li>{@link #asyncDefault}: the same with the AsyncAppender's defaults (discards INFO and
 *       below when the queue is 80% full): lossy, its loss is reported;</li>
 *   <li>{@link #onSpoolSink}: a synchronous appender (Logback's default {@code immediateFlush=true})
 *       whose stream is {@code SinkStreams.wrap(FileOutputStream)} with flush not forwarded,
 *       which is what the agent makes of a {@code FileAppender};</li>
 *   <li>{@link #onNullStream}: the floor, the same appender on a stream that writes nothing.</li>
 * </ul>
 * {@link #stop()} is {@code LoggerContext.stop()}: appenders stopped (the AsyncAppender drains
 * its queue, waiting up to its default {@code maxFlushTime}), files closed.
 */
final class LogbackLines implements Contender {
    private final LoggerContext context;
    private final Logger logger;
    private boolean stopped;
    private CountingNullStream counter;

    private LogbackLines(LoggerContext context, Appender<ILoggingEvent> appender) {
        this.context = context;
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        logger = context.getLogger("anchor");
    }

    static LogbackLines asyncLossless(Path file) {
        return async(file, true);
    }

    static LogbackLines asyncDefault(Path file) {
        return async(file, false);
    }

    private static LogbackLines async(Path file, boolean lossless) {
        LoggerContext ctx = newContext();
        FileAppender<ILoggingEvent> fa = new FileAppender<>();
        fa.setContext(ctx);
        fa.setName("file");
        fa.setFile(file.toString());
        fa.setAppend(false);
        fa.setImmediateFlush(false);
        fa.setEncoder(encoder(ctx));
        fa.start();
        AsyncAppender async = new AsyncAppender();
        async.setContext(ctx);
        async.setName("async");
        if (lossless) {
            async.setDiscardingThreshold(0);
            async.setNeverBlock(false);
        }
        async.addAppender(fa);
        async.start();
        return started(new LogbackLines(ctx, async), fa, async);
    }

    static LogbackLines onSpoolSink(Path file) throws IOException {
        return onStream(new JulLines.FlushNotForwarded(SinkStreams.wrap(new FileOutputStream(file.toFile()),
                file.getFileName().toString(), SinkSettings.defaults())));
    }

    /** The floor: the same appender on a stream that writes nothing (Logback's own cost per line). */
    static LogbackLines onNullStream() {
        CountingNullStream counter = new CountingNullStream();
        LogbackLines c = onStream(counter);
        c.counter = counter;
        return c;
    }

    private static LogbackLines onStream(OutputStream out) {
        LoggerContext ctx = newContext();
        OutputStreamAppender<ILoggingEvent> app = new OutputStreamAppender<>();
        app.setContext(ctx);
        app.setName("stream");
        app.setEncoder(encoder(ctx));
        app.setOutputStream(out);
        app.start();
        return started(new LogbackLines(ctx, app), app, app);
    }

    @Override
    public long[] output(Path file) throws IOException {
        return counter != null ? counter.output() : Contender.super.output(file);
    }

    /** A context as Logback's SLF4J provider makes it (the MDC adapter is the provider's job). */
    private static LoggerContext newContext() {
        LoggerContext ctx = new LoggerContext();
        ctx.setMDCAdapter(new LogbackMDCAdapter());
        ctx.start();
        return ctx;
    }

    private static PatternLayoutEncoder encoder(LoggerContext ctx) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%msg%n");
        enc.start();
        return enc;
    }

    private static LogbackLines started(LogbackLines c, Appender<?> inner, Appender<?> outer) {
        if (!inner.isStarted() || !outer.isStarted()) {
            throw new IllegalStateException("Logback appender not started: "
                    + c.context.getStatusManager().getCopyOfStatusList());
        }
        return c;
    }

    @Override
    public void log(int i) {
        logger.info(Workload.TEMPLATE, Workload.FIRST_PARAM + i);
    }

    @Override
    public void stop() {
        if (!stopped) {
            stopped = true;
            context.stop();
        }
    }
}
