package dev.spool.bench.anchors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * JUL with a realistic layout (issue 13's anchors): a plain {@code FileHandler} with the JDK's
 * {@code SimpleFormatter} and {@link #REALISTIC} (date, time with milliseconds, padded level,
 * logger, message; JUL has no thread name) or {@link #CALLER} (the same with the source class and
 * method, inferred from the call: JUL's caller data), the message a {@code MessageFormat} template
 * with the workload's one parameter. Run without the agent it is the plain JUL row
 * ({@link LayoutAnchorBench}'s {@code julFile}); in {@link LayoutAnchorJulAgentBench}'s fork (with
 * {@code -javaagent}) it is Spool's JUL route with capture at the call. Lines have one length
 * (the parameter always has 7 digits, one call site), {@link #lineBytes()}.
 */
final class JulSimpleLines implements Contender {

    static final String REALISTIC = "%1$tF %1$tT.%1$tL %4$-7s %3$s - %5$s%n";
    static final String CALLER = "%1$tF %1$tT.%1$tL %4$-7s %3$s %2$s - %5$s%n";
    private static final String TEMPLATE = Workload.TEMPLATE.replace("{}", "{0}");

    private final Logger logger = Logger.getLogger("dev.spool.bench.anchors.OrderService");
    private final FileHandler handler;
    private final Path file;
    private final long lineBytes;

    JulSimpleLines(Path file, String format) throws IOException {
        System.setProperty("java.util.logging.SimpleFormatter.format", format);
        this.file = file;
        handler = new FileHandler(file.toString(), false);
        SimpleFormatter formatter = new SimpleFormatter();
        handler.setFormatter(formatter);
        handler.setLevel(Level.ALL);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.INFO);
        for (var h : logger.getHandlers()) {
            logger.removeHandler(h);
        }
        logger.addHandler(handler);
        LogRecord sample = new LogRecord(Level.INFO, TEMPLATE);
        sample.setParameters(new Object[] {Workload.FIRST_PARAM});
        sample.setLoggerName(logger.getName());
        sample.setSourceClassName(JulSimpleLines.class.getName()); // the call site of log(int)
        sample.setSourceMethodName("log");
        sample.setInstant(Instant.now());
        lineBytes = formatter.format(sample).getBytes(java.nio.charset.Charset.defaultCharset()).length;
    }

    @Override
    public void log(int i) {
        logger.log(Level.INFO, TEMPLATE, Workload.FIRST_PARAM + i);
    }

    @Override
    public void stop() throws IOException {
        logger.removeHandler(handler);
        handler.close();
        Files.deleteIfExists(Path.of(file + ".lck"));
    }

    @Override
    public long lineBytes() {
        return lineBytes;
    }
}
