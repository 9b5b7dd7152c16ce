package dev.spool.bench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** A JUL logger with one {@code FileHandler} (the host code both agent benchmarks run unchanged). */
final class JulLogging {

    final Path dir;
    final FileHandler handler;
    final Logger logger;

    JulLogging(String name) throws IOException {
        dir = Files.createTempDirectory("spool-bench-jul-");
        handler = new FileHandler(dir.resolve("app%g.log").toString(), 0, 1, false);
        handler.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return r.getSequenceNumber() + " " + r.getLevel() + " " + r.getMessage() + "\n";
            }
        });
        logger = Logger.getLogger(name);
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
    }

    void log(long i) {
        logger.log(Level.INFO, "job 17 step " + i + " finished in 3 ms with status ok");
    }

    void close() throws IOException {
        handler.close();
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }
}
