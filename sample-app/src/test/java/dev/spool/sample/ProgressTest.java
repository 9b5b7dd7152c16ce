package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void shouldPrintEachTenthExactlyOnceUnderConcurrentSteps() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int threads = 4;
    int perThread = 2_503;
    Progress progress = new Progress((long) threads * perThread, out);
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        for (int i = 0; i < perThread; i++) {
          progress.stepDone();
        }
      });
      worker.start();
      workers.add(worker);
    }
    for (Thread worker : workers) {
      worker.join();
    }
    List<String> percents = bytes.toString(StandardCharsets.UTF_8).lines()
        .map(l -> l.substring("progress: ".length(), l.indexOf('%')))
        .sorted((x, y) -> Integer.parseInt(x) - Integer.parseInt(y))
        .toList();
    assertEquals(List.of("10", "20", "30", "40", "50", "60", "70", "80", "90", "100"), percents);
  }
}
