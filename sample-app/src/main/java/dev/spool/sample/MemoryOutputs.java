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
 * <p>Thread-safe. What is kept is counted ({@link #keptUnits}, by kind) so that no work can be
 * optimised away.
 */
final class MemoryOutputs implements JobOutputs {

  /** How much of the outputs' work is done. */
  enum Mode { ENCODED, COMPUTE }

  private final Mode mode;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Formatter formatter = new SimLog.LineFormatter();
  private final Map<String, Object> documents = new ConcurrentHashMap<>();
  private final LongAdder documentUnits = new LongAdder();
  private final LongAdder logUnits = new LongAdder();
  private final LongAdder emitUnits = new LongAdder();

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
      documentUnits.add(bytes.length);
    } else {
      documents.put(doc.getPath(), document);
      documentUnits.add(document.size());
    }
  }

  @Override
  public void log(String line) {
    if (mode == Mode.ENCODED) {
      logUnits.add(formatter.format(new LogRecord(Level.INFO, line)).length());
    } else {
      logUnits.add(line.length());
    }
  }

  @Override
  public void emit(Map<String, Object> record) throws IOException {
    emitUnits.add(mode == Mode.ENCODED ? mapper.writeValueAsBytes(record).length : record.size());
  }

  /** Bytes, characters or entries kept so far, of every kind (only to keep the work observable). */
  long keptUnits() {
    return documentUnits.sum() + logUnits.sum() + emitUnits.sum();
  }

  /** Characters of the formatted log lines ({@link Mode#ENCODED}) or of the bare lines. */
  long logUnits() {
    return logUnits.sum();
  }

  /** Bytes of the encoded records ({@link Mode#ENCODED}) or their entries. */
  long emitUnits() {
    return emitUnits.sum();
  }

  @Override
  public void close() {}
}
