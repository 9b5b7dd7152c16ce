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
      assertTrue(outputs.keptUnits() > 0, mode.name());
      for (int job = 0; job < 3; job++) {
        String id = JobParameters.idOf(job);
        byte[] written = Files.readAllBytes(files.out().resolve("jobs/" + id + "/doc.json"));
        File kept = floor.out().resolve("jobs").resolve(id).resolve("doc.json").toFile();
        assertArrayEquals(written, outputs.encoded(kept), mode + " " + id);
      }
      assertTrue(!Files.exists(floor.out().resolve("sim.log")), "a floor writes no file");
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
