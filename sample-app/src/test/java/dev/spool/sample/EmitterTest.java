package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmitterTest {
  @TempDir Path tmp;

  /** Many threads emitting at once: every line is one whole record, each record exactly once. */
  @Test
  void shouldWriteWholeLinesFromManyThreadsAtOnce() throws Exception {
    int threads = 8;
    int perThread = 2_000;
    Path file = tmp.resolve("emits.jsonl");
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CyclicBarrier start = new CyclicBarrier(threads);
    try (Emitter emitter = new Emitter(file)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("thread", thread);
            record.put("i", i);
            record.put("values", new double[] {i, i / 3.0, -i});
            emitter.emit(record);
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    ObjectMapper mapper = new ObjectMapper();
    Set<String> seen = new HashSet<>();
    List<String> lines = Files.readAllLines(file);
    for (String line : lines) {
      JsonNode node = mapper.readTree(line);
      int i = node.get("i").asInt();
      assertEquals(i / 3.0, node.get("values").get(1).asDouble());
      assertTrue(seen.add(node.get("thread").asInt() + ":" + i), "duplicate " + line);
    }
    assertEquals(threads * perThread, lines.size());
    assertEquals(threads * perThread, seen.size());
  }

  @Test
  void shouldCreateNoFileWhenNothingIsEmitted() throws IOException {
    Path file = tmp.resolve("none.jsonl");
    new Emitter(file).close();
    assertFalse(Files.exists(file));
  }

  @Test
  void shouldFlushEachRecordAndRefuseAfterClose() throws IOException {
    Path file = tmp.resolve("one.jsonl");
    Emitter emitter = new Emitter(file);
    emitter.emit(Map.of("step", 1));
    assertEquals("{\"step\":1}\n", Files.readString(file), "on disk before close");
    emitter.close();
    assertThrows(IOException.class, () -> emitter.emit(Map.of("step", 2)));
  }
}
