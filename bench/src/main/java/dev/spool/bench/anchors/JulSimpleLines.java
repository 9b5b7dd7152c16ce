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
 * JUL with a realistic layout (issue 13): a plain {@code FileHandler} with the JDK's
 * {@code SimpleFormatter} and {@link #FORMAT} (date, time with milliseconds, level, logger,
 * message), the message a {@code MessageFormat} template with the workload's one parameter. Run
 * without the agent it is the JUL anchor; in {@link JulAgentAnchorBench}'s fork (with
 * {@code -javaagent}) it is Spool's JUL route with capture at the call. Lines have one length
 * (the parameter always has 7 digits), {@link #lineBytes()}.
 */
final class JulSimpleLines implements Contender {

    static final String FORMAT = "%1$tF %1$tT.%1$tL %4$s %3$s - %5$s%n";
    private static final String TEMPLATE = Workload.TEMPLATE.replace("{}", "{0}");

    private final Logger logger = Logger.getLogger("dev.spool.bench.anchors.Orders");
    private final FileHandler handler;
    private final Path file;
    private final long lineBytes;

    JulSimpleLines(Path file) throws IOException {
        System.setProperty("java.util.logging.SimpleFormatter.format", FORMAT);
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
