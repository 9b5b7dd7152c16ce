package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeterminismTest {
  @TempDir Path tmp;

  private Path run(String name, int threads) {
    Path out = tmp.resolve(name);
    Outputs.Result result = Outputs.run("--out", out.toString(), "--jobs", "5", "--steps", "60",
        "--threads", Integer.toString(threads));
    assertEquals(0, result.code(), result.err());
    return out;
  }

  @Test
  void shouldProduceTheSameOutputsInTwoRuns() throws IOException {
    Path a = run("a", 3);
    Path b = run("b", 3);
    assertEquals(Outputs.documents(a), Outputs.documents(b));
    assertEquals(Outputs.sortedLines(a.resolve("sim.log")), Outputs.sortedLines(b.resolve("sim.log")));
    assertEquals(Outputs.sortedLines(a.resolve("emits.jsonl")),
        Outputs.sortedLines(b.resolve("emits.jsonl")));
  }

  @Test
  void shouldNotDependOnTheNumberOfThreads() throws IOException {
    Path one = run("one", 1);
    Path four = run("four", 4);
    assertEquals(Outputs.documents(one), Outputs.documents(four));
    assertEquals(Outputs.sortedLines(one.resolve("emits.jsonl")),
        Outputs.sortedLines(four.resolve("emits.jsonl")));
  }

  @Test
  void shouldGiveEachJobOfTheSweepItsOwnResult() throws IOException {
    var docs = Outputs.documents(run("sweep", 2));
    assertEquals(5, docs.size());
    assertEquals(5, docs.values().stream().distinct().count());
    assertNotEquals(docs.get("job-000/doc.json"), docs.get("job-001/doc.json"));
  }
}
