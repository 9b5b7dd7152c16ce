package dev.spool.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The app's real outputs, in {@code out}: each job's document {@code jobs/<id>/doc.json}
 * ({@code ObjectMapper.writeValue(File)}, read back with {@code readValue(File)}), the log
 * {@code sim.log} ({@link SimLog}) and the records {@code emits.jsonl} ({@link Emitter}).
 */
final class FileOutputs implements JobOutputs {
  private final ObjectMapper documents = new ObjectMapper();
  private SimLog log; // set by open, before the workers start
  private Emitter emitter;

  @Override
  public void open(Path out) throws IOException {
    log = SimLog.open(out.resolve("sim.log"));
    emitter = new Emitter(out.resolve("emits.jsonl"));
  }

  @Override
  public Map<?, ?> restore(File doc) throws IOException {
    return documents.readValue(doc, Map.class);
  }

  @Override
  public void save(File doc, Map<String, Object> document) throws IOException {
    documents.writeValue(doc, document);
  }

  @Override
  public void log(String line) {
    log.info(line);
  }

  @Override
  public void emit(Map<String, Object> record) throws IOException {
    emitter.emit(record);
  }

  @Override
  public void close() throws IOException {
    try {
      log.close();
    } finally {
      emitter.close();
    }
  }
}
