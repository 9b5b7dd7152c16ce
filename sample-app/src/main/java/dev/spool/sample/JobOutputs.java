package dev.spool.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a {@link Simulation} puts what its jobs produce. The app's real outputs are
 * {@link FileOutputs}: files, through Jackson, {@code java.util.logging} and the {@link Emitter},
 * the calls the Spool agent takes over. {@link MemoryOutputs} are the benchmark floors of
 * {@link FloorApp}: the same jobs with no file at all.
 *
 * <p>Made before the run's clock starts (so, as in the app before, its {@code ObjectMapper} is made
 * outside the timed run) and opened once the clock runs. After {@link #open}, called from the
 * worker threads at once; an implementation is thread-safe.
 */
interface JobOutputs extends AutoCloseable {

  /** Opens the outputs in the run's folder {@code out}, at the start of the run's clock. */
  void open(Path out) throws IOException;

  /** The job document last saved to {@code doc}, as maps, lists and numbers. */
  Map<?, ?> restore(File doc) throws IOException;

  /** Saves {@code document} as the job's document {@code doc}. */
  void save(File doc, Map<String, Object> document) throws IOException;

  /** Logs one line at INFO. */
  void log(String line);

  /** Emits one record. */
  void emit(Map<String, Object> record) throws IOException;

  @Override
  void close() throws IOException;
}
