package dev.spool.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The simulation's log: a {@code java.util.logging} logger with a {@link FileHandler} on one file,
 * configured in code. Its formatter writes {@code LEVEL message} and a {@code \n}, with no
 * timestamp or thread name, so two runs produce the same lines.
 */
final class SimLog implements AutoCloseable {
  static final String LOGGER_NAME = "dev.spool.sample.sim";

  private final Logger logger; // a strong reference: JUL holds loggers weakly
  private final FileHandler handler;

  private SimLog(Logger logger, FileHandler handler) {
    this.logger = logger;
    this.handler = handler;
  }

  /** Opens (truncating) {@code file} and attaches a handler writing to it. */
  static SimLog open(Path file) throws IOException {
    // FileHandler patterns treat '%' as special; one file, no rotation, no appending.
    String pattern = file.toAbsolutePath().toString().replace("%", "%%");
    FileHandler handler = new FileHandler(pattern, 0, 1, false);
    handler.setEncoding(StandardCharsets.UTF_8.name());
    handler.setFormatter(new LineFormatter());
    handler.setLevel(Level.ALL);
    Logger logger = Logger.getLogger(LOGGER_NAME);
    logger.setUseParentHandlers(false);
    logger.setLevel(Level.INFO);
    logger.addHandler(handler);
    return new SimLog(logger, handler);
  }

  void info(String message) {
    logger.info(message);
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    handler.close();
  }

  /** {@code LEVEL message\n}: deterministic, one record per line. */
  static final class LineFormatter extends Formatter {
    @Override
    public String format(LogRecord record) {
      return record.getLevel().getName() + ' ' + formatMessage(record) + '\n';
    }
  }
}
