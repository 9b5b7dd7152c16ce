package dev.spool.sample;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/** Counts finished steps and prints a line at every tenth of the run. Thread-safe, lock-free. */
final class Progress {
  private static final int PARTS = 10;

  private final long total;
  private final PrintStream out;
  private final AtomicLong done = new AtomicLong();

  Progress(long total, PrintStream out) {
    this.total = total;
    this.out = out;
  }

  void stepDone() {
    long now = done.incrementAndGet();
    // Exactly one caller sees the step that crosses each boundary, so each line prints once.
    if (now * PARTS / total != (now - 1) * PARTS / total) {
      out.println("progress: " + (now * 100 / total) + "% (" + now + "/" + total + " steps)");
    }
  }
}
