package dev.spool.bench.anchors;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * Contenders with realistic layouts (issue 13's anchors rows): date, thread, level, logger and
 * message ({@code realistic}), and the same with the caller's class, method and line
 * ({@code caller}), in Logback's and Log4j2's equivalent patterns. Every line of one contender and
 * layout has the same length (fixed-width date, padded level, one logger, fixed thread names).
 * <ul>
 *   <li>{@code logbackFile}: a plain {@code FileAppender} with a {@code PatternLayoutEncoder} and
 *       Logback's defaults ({@code immediateFlush=true}): what the application configures; run
 *       without the agent it is the plain row, under {@code -javaagent} it is Spool's row;</li>
 *   <li>{@code logbackRolling}: a {@code RollingFileAppender} with {@code SizeAndTimeBasedRollingPolicy}
 *       (10 MB files, {@code <file>.<day>.<i>}, no compression; the common production configuration),
 *       otherwise as {@code logbackFile};</li>
 *   <li>{@code logbackAsync}: {@code AsyncAppender} without discarding ({@code discardingThreshold=0},
 *       {@code neverBlock=false}, {@code includeCallerData} for the caller layout) over the same
 *       {@code FileAppender} with {@code immediateFlush=false};</li>
 *   <li>{@code julFile}: JUL's {@code FileHandler} + {@code SimpleFormatter}, date, level, logger and
 *       message (JUL has no thread name), plus the source class and method for the caller layout
 *       ({@link JulSimpleLines}); plain here, Spool's JUL row under {@code -javaagent};</li>
 *   <li>{@code log4j2}: a {@code RandomAccessFile} appender ({@code immediateFlush=false}); synchronous
 *       or all-async by the fork's context selector ({@code includeLocation} for the caller layout).</li>
 * </ul>
 */
final class LayoutLines {

    static final String LOGBACK_REALISTIC = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n";
    static final String LOGBACK_CALLER = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} %class.%method:%line - %msg%n";
    static final String LOG4J2_REALISTIC = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n";
    static final String LOG4J2_CALLER = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} %C.%M:%L - %msg%n";

    private LayoutLines() {}

    static Contender open(String name, String layout, Path file) {
        boolean caller = switch (layout) {
            case "realistic", "appLayout" -> false;
            case "caller" -> true;
            default -> throw new IllegalArgumentException("unknown layout " + layout);
        };
        if (layout.equals("appLayout")) { // not in the @Param list: -p layout=appLayout, Logback's FileAppender only
            if (!name.equals("logbackFile")) {
                throw new IllegalArgumentException("layout appLayout is for logbackFile only, not " + name);
            }
            LoggerContext ctx = logbackContext();
            ch.qos.logback.core.encoder.LayoutWrappingEncoder<ILoggingEvent> enc = new ch.qos.logback.core.encoder.LayoutWrappingEncoder<>();
            enc.setContext(ctx);
            enc.setLayout(new AppLayout(logbackEncoder(ctx, false).getLayout()));
            enc.start();
            return logback(ctx, enc, file, false, false);
        }
        return switch (name) {
            case "logbackFile" -> logback(file, caller, false);
            case "logbackAsync" -> logback(file, caller, true);
            case "logbackRolling" -> logbackRolling(file, caller);
            case "log4j2Sync" -> log4j2(file, caller, false);
            case "log4j2Async" -> log4j2(file, caller, true);
            case "julFile" -> jul(file, caller);
            default -> throw new IllegalArgumentException("unknown contender " + name);
        };
    }

    private static Contender logback(Path file, boolean caller, boolean async) {
        LoggerContext ctx = logbackContext();
        return logback(ctx, logbackEncoder(ctx, caller), file, caller, async);
    }

    /**
     * The realistic pattern behind an application's own {@code Layout} (as a JSON or company layout is):
     * Spool does not defer an encoder it does not know, so under the agent Logback encodes on the caller's
     * thread and only the bytes are routed (and journaled as bytes, issue 33).
     */
    static final class AppLayout extends ch.qos.logback.core.LayoutBase<ILoggingEvent> {
        private final ch.qos.logback.core.Layout<ILoggingEvent> inner;

        AppLayout(ch.qos.logback.core.Layout<ILoggingEvent> inner) {
            this.inner = inner;
        }

        @Override
        public String doLayout(ILoggingEvent event) {
            return inner.doLayout(event);
        }
    }

    private static Contender logback(LoggerContext ctx, ch.qos.logback.core.encoder.Encoder<ILoggingEvent> enc, Path file,
                                     boolean caller, boolean async) {
        FileAppender<ILoggingEvent> fa = new FileAppender<>();
        fa.setContext(ctx);
        fa.setName("file");
        fa.setFile(file.toString());
        fa.setAppend(false);
        fa.setImmediateFlush(!async);
        fa.setEncoder(enc);
        fa.start();
        Appender<ILoggingEvent> top = fa;
        if (async) {
            AsyncAppender a = new AsyncAppender();
            a.setContext(ctx);
            a.setName("async");
            a.setDiscardingThreshold(0);
            a.setNeverBlock(false);
            a.setIncludeCallerData(caller);
            a.addAppender(fa);
            a.start();
            top = a;
        }
        if (!fa.isStarted() || !top.isStarted()) {
            throw new IllegalStateException("Logback appender not started: " + ctx.getStatusManager().getCopyOfStatusList());
        }
        return logbackContender(ctx, top);
    }

    private static Contender logbackRolling(Path file, boolean caller) {
        LoggerContext ctx = logbackContext();
        RollingFileAppender<ILoggingEvent> ra = new RollingFileAppender<>();
        ra.setContext(ctx);
        ra.setName("rolling");
        ra.setFile(file.toString());
        ra.setEncoder(logbackEncoder(ctx, caller));
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(ra);
        policy.setFileNamePattern(file + ".%d{yyyy-MM-dd}.%i");
        policy.setMaxFileSize(FileSize.valueOf("10MB"));
        policy.start();
        ra.setRollingPolicy(policy);
        ra.start();
        if (!ra.isStarted()) {
            throw new IllegalStateException("Logback appender not started: " + ctx.getStatusManager().getCopyOfStatusList());
        }
        return logbackContender(ctx, ra);
    }

    /** A started Logback context of its own (not the static one), with an MDC adapter. */
    static LoggerContext logbackContext() {
        LoggerContext ctx = new LoggerContext();
        ctx.setMDCAdapter(new LogbackMDCAdapter());
        ctx.start();
        return ctx;
    }

    /** A started {@code PatternLayoutEncoder} with the realistic or caller-data pattern. */
    static PatternLayoutEncoder logbackEncoder(LoggerContext ctx, boolean caller) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern(caller ? LOGBACK_CALLER : LOGBACK_REALISTIC);
        enc.start();
        return enc;
    }

    /** The workload's line logged at INFO through {@code ctx}'s root logger into {@code top}; stopping stops {@code ctx}. */
    static Contender logbackContender(LoggerContext ctx, Appender<ILoggingEvent> top) {
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(top);
        Logger logger = ctx.getLogger("dev.spool.bench.anchors.OrderService");
        return new Contender() {
            @Override
            public void log(int i) {
                logger.info(Workload.TEMPLATE, Workload.FIRST_PARAM + i);
            }

            @Override
            public void stop() {
                ctx.stop();
            }
        };
    }

    /** JUL's equivalent: {@code FileHandler} + {@code SimpleFormatter} ({@link JulSimpleLines}). */
    private static Contender jul(Path file, boolean caller) {
        try {
            return new JulSimpleLines(file, caller ? JulSimpleLines.CALLER : JulSimpleLines.REALISTIC);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Contender log4j2(Path file, boolean caller, boolean async) {
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setConfigurationName("spool-anchor-layout");
        b.setStatusLevel(org.apache.logging.log4j.Level.WARN);
        b.setShutdownHook("disable");
        b.add(b.newAppender("file", "RandomAccessFile")
                .addAttribute("fileName", file.toString())
                .addAttribute("append", false)
                .addAttribute("immediateFlush", false)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", caller ? LOG4J2_CALLER : LOG4J2_REALISTIC)));
        b.add(b.newRootLogger(org.apache.logging.log4j.Level.INFO).addAttribute("includeLocation", caller)
                .add(b.newAppenderRef("file")));
        org.apache.logging.log4j.core.LoggerContext ctx = Configurator.initialize(b.build());
        if (ctx == null || !ctx.isStarted() || (ctx instanceof AsyncLoggerContext) != async) {
            throw new IllegalStateException("Log4j2 context not as the bench wants (async " + async + "): " + ctx);
        }
        org.apache.logging.log4j.Logger logger = ctx.getLogger("dev.spool.bench.anchors.OrderService");
        return new Contender() {
            @Override
            public void log(int i) {
                logger.info(Workload.TEMPLATE, Workload.FIRST_PARAM + i);
            }

            @Override
            public void stop() {
                if (!ctx.isStopped()) {
                    Configurator.shutdown(ctx);
                }
            }
        };
    }
}
