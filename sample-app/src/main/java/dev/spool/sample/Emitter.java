package dev.spool.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Emits one structured record per call as a JSON line to a file, the way many applications write
 * their metrics or result streams: encode, append, flush. Thread-safe: concurrent calls append
 * whole lines, one after another.
 *
 * <p>The file is opened on the first record, so a run whose {@link #emit} calls are taken over by
 * someone else (the Spool agent with {@code spool.events.methods=dev.spool.sample.Emitter#emit})
 * leaves no empty file behind. The lock is taken inside the method body, not by declaring the
 * method {@code synchronized}, so such a replacement does not serialise its callers either.
 *
 * <pre>{@code
 * try (Emitter emitter = new Emitter(dir.resolve("emits.jsonl"))) {
 *   emitter.emit(Map.of("step", 1, "values", new double[] {0.5, 0.25}));
 * }
 * }</pre>
 */
public final class Emitter implements AutoCloseable {
  private static final int BUFFER_BYTES = 8192;

  private final Path file;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Object lock = new Object();
  private OutputStream out; // guarded by lock
  private boolean closed; // guarded by lock

  public Emitter(Path file) {
    this.file = file;
  }

  /** Appends {@code record} as one JSON line and flushes it to the file. */
  public void emit(Map<String, Object> record) throws IOException {
    byte[] json = mapper.writeValueAsBytes(record);
    synchronized (lock) {
      if (closed) {
        throw new IOException("emitter for " + file + " is closed");
      }
      if (out == null) {
        out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), BUFFER_BYTES);
      }
      out.write(json);
      out.write('\n');
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (lock) {
      closed = true;
      if (out != null) {
        out.close();
        out = null;
      }
    }
  }
}
