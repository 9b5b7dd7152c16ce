package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FloorAppTest {
  @TempDir Path tmp;

  /** Three slices per job, so the floors resume jobs from what they kept, as the app does. */
  private static final int STEPS = 2 * Simulation.SLICE_STEPS + 7;

  @Test
  void shouldLeaveEachJobAtTheDocumentTheAppWritesInBothFloors() throws Exception {
    AppArgs files = AppArgs.parse("--out", tmp.resolve("files").toString(), "--jobs", "3",
        "--steps", String.valueOf(STEPS), "--threads", "2");
    new Simulation(files, quiet()).run();
    for (MemoryOutputs.Mode mode : MemoryOutputs.Mode.values()) {
      AppArgs floor = AppArgs.parse("--out", tmp.resolve(mode.name()).toString(), "--jobs", "3",
          "--steps", String.valueOf(STEPS), "--threads", "2");
      MemoryOutputs outputs = new MemoryOutputs(mode);
      RunSummary summary = new Simulation(floor, quiet(), outputs).run();
      assertEquals(3L * STEPS, summary.docWrites(), mode.name());
      if (mode == MemoryOutputs.Mode.ENCODED) { // every line formatted, every record encoded
        assertEquals(Files.size(files.out().resolve("sim.log")), outputs.logUnits());
        assertEquals(Files.size(files.out().resolve("emits.jsonl")) - summary.emits(), outputs.emitUnits());
      } else {
        assertTrue(outputs.logUnits() > 0 && outputs.emitUnits() > 0, mode.name());
      }
      for (int job = 0; job < 3; job++) {
        String id = JobParameters.idOf(job);
        byte[] written = Files.readAllBytes(files.out().resolve("jobs/" + id + "/doc.json"));
        File kept = floor.out().resolve("jobs").resolve(id).resolve("doc.json").toFile();
        assertArrayEquals(written, outputs.encoded(kept), mode + " " + id);
      }
      try (Stream<Path> all = Files.walk(floor.out())) {
        assertEquals(List.of(), all.filter(Files::isRegularFile).toList(), "a floor writes no file");
      }
    }
  }

  @Test
  void shouldRunAFloorToOneSummaryLine() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = FloorApp.run(new String[] {"compute", "--out", tmp.resolve("run").toString(), "--jobs",
        "2", "--steps", "60"}, new PrintStream(out, true), quiet());
    assertEquals(0, code);
    String line = out.toString(StandardCharsets.UTF_8).strip();
    assertTrue(line.startsWith("{\"elapsedMillis\":") && line.endsWith(",\"docWrites\":120,"
        + "\"logRecords\":120,\"emits\":120}"), line);
  }

  @Test
  void shouldRefuseHelpAndHoldWithCode2() {
    for (String option : new String[] {"--help", "--hold"}) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = FloorApp.run(new String[] {"encoded", "--out", tmp.toString(), option},
          new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
      assertEquals(2, code, option);
      assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: "), option);
    }
  }

  @Test
  void shouldRefuseAnUnknownFloorWithCode2() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = FloorApp.run(new String[] {"disk", "--out", tmp.toString()},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("encoded or compute, got: disk"));
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream());
  }
}
