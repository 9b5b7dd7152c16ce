package dev.spool.bench.anchors;

import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLogger;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * Log4j2 contenders: one {@code RandomAccessFile} appender ({@code immediateFlush=false},
 * layout {@code %m%n}) under the root logger, configured programmatically. Whether the loggers
 * are all-async is the fork's choice ({@code -Dlog4j2.contextSelector=...AsyncLoggerContextSelector},
 * as a user sets it), checked here; everything else is Log4j2's default (ring buffer size, wait
 * strategy, queue-full policy). {@link #stop()} is {@code Configurator.shutdown}: the
 * disruptor is drained and halted, the appender stopped and the file closed.
 */
final class Log4j2Lines implements Contender {
    private final LoggerContext context;
    private final Logger logger;

    private Log4j2Lines(LoggerContext context) {
        this.context = context;
        this.logger = context.getLogger("anchor");
    }

    static Log4j2Lines allAsync(Path file) {
        Log4j2Lines c = new Log4j2Lines(start(file));
        if (!(c.context instanceof AsyncLoggerContext) || !(c.logger instanceof AsyncLogger)) {
            throw new IllegalStateException("not all-async: " + c.context.getClass().getName()
                    + " / " + c.logger.getClass().getName() + " (fork without AsyncLoggerContextSelector?)");
        }
        return c;
    }

    static Log4j2Lines synchronous(Path file) {
        Log4j2Lines c = new Log4j2Lines(start(file));
        if (c.context instanceof AsyncLoggerContext || c.logger instanceof AsyncLogger) {
            throw new IllegalStateException("expected synchronous loggers, got " + c.logger.getClass().getName());
        }
        return c;
    }

    private static LoggerContext start(Path file) {
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setConfigurationName("spool-anchor");
        b.setStatusLevel(Level.WARN);
        b.setShutdownHook("disable");
        b.add(b.newAppender("file", "RandomAccessFile")
                .addAttribute("fileName", file.toString())
                .addAttribute("append", false)
                .addAttribute("immediateFlush", false)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", "%m%n")));
        b.add(b.newRootLogger(Level.INFO).add(b.newAppenderRef("file")));
        LoggerContext ctx = Configurator.initialize(b.build());
        if (ctx == null || !ctx.isStarted() || !"spool-anchor".equals(ctx.getConfiguration().getName())) {
            throw new IllegalStateException("Log4j2 context not started with the bench configuration: " + ctx);
        }
        return ctx;
    }

    /**
     * Fails unless the Disruptor that Log4j2 will load is of the given major version: 4.0 has
     * {@code com.lmax.disruptor.RewindableEventHandler}, 3.x does not.
     */
    static void requireDisruptor(int major) {
        int found;
        try {
            Class.forName("com.lmax.disruptor.RewindableEventHandler", false, Log4j2Lines.class.getClassLoader());
            found = 4;
        } catch (ClassNotFoundException e) {
            found = 3;
        }
        if (found != major) {
            throw new IllegalStateException("Disruptor " + found + ".x loaded, the benchmark wants " + major + ".x");
        }
    }

    @Override
    public void log(int i) {
        logger.info(Workload.TEMPLATE, Workload.FIRST_PARAM + i);
    }

    @Override
    public void stop() {
        if (!context.isStopped()) {
            Configurator.shutdown(context);
        }
    }
}
