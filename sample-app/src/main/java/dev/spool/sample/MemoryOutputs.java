package dev.spool.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * Outputs that never touch a file: the floors the demo's agent run is measured against
 * ({@link FloorApp}, {@code scripts/demo-floor.sh}).
 *
 * <ul>
 *   <li>{@link Mode#ENCODED}: what an application caching in memory would do. Every document is
 *       encoded ({@code writeValueAsBytes}) into a map and parsed back from its bytes, every log
 *       line is formatted by the app's own formatter, every record is encoded.
 *   <li>{@link Mode#COMPUTE}: only the app's own work. Documents, lines and records are built and
 *       kept, never encoded or formatted; a restore (once per slice of
 *       {@value Simulation#SLICE_STEPS} steps) encodes and parses the kept document, so the job
 *       resumes from the same maps and lists a file would give.
 * </ul>
 *
 * <p>Thread-safe. What is kept is counted ({@link #keptUnits}) so that no work can be optimised
 * away.
 */
final class MemoryOutputs implements JobOutputs {

  /** How much of the outputs' work is done. */
  enum Mode { ENCODED, COMPUTE }

  private final Mode mode;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Formatter formatter = new SimLog.LineFormatter();
  private final Map<String, Object> documents = new ConcurrentHashMap<>();
  private final LongAdder kept = new LongAdder();

  MemoryOutputs(Mode mode) {
    this.mode = mode;
  }

  @Override
  public void open(Path out) {}

  @Override
  public Map<?, ?> restore(File doc) throws IOException {
    return mapper.readValue(encoded(doc), Map.class);
  }

  /** The bytes the document last saved to {@code doc} encodes to (a file would hold them). */
  byte[] encoded(File doc) throws IOException {
    Object kept = documents.get(doc.getPath());
    if (kept == null) {
      throw new IOException(doc + ": no document saved");
    }
    return kept instanceof byte[] encoded ? encoded : mapper.writeValueAsBytes(kept);
  }

  @Override
  public void save(File doc, Map<String, Object> document) throws IOException {
    if (mode == Mode.ENCODED) {
      byte[] bytes = mapper.writeValueAsBytes(document);
      documents.put(doc.getPath(), bytes);
      kept.add(bytes.length);
    } else {
      documents.put(doc.getPath(), document);
      kept.add(document.size());
    }
  }

  @Override
  public void log(String line) {
    if (mode == Mode.ENCODED) {
      kept.add(formatter.format(new LogRecord(Level.INFO, line)).length());
    } else {
      kept.add(line.length());
    }
  }

  @Override
  public void emit(Map<String, Object> record) throws IOException {
    kept.add(mode == Mode.ENCODED ? mapper.writeValueAsBytes(record).length : record.size());
  }

  /** Bytes, characters or entries kept so far (a sum, only to keep the work observable). */
  long keptUnits() {
    return kept.sum();
  }

  @Override
  public void close() {}
}
