package dev.spool.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleAppTest {
  @TempDir Path tmp;

  @Test
  void shouldExitWithCode2AndPrintUsageOnBadArguments() {
    Outputs.Result result = Outputs.run("--out", tmp.toString(), "--jobs", "many");
    assertEquals(2, result.code());
    assertTrue(result.err().startsWith("error: --jobs needs a whole number, got: many\nusage: "),
        result.err());
    assertEquals("", result.out());
    assertFalse(Files.exists(tmp.resolve("jobs")), "nothing written on bad arguments");
  }

  @Test
  void shouldRefuseAFolderThatAlreadyHoldsARun() throws IOException {
    Files.writeString(tmp.resolve("sim.log"), "old\n");
    Outputs.Result result = Outputs.run("--out", tmp.toString(), "--jobs", "1", "--steps", "1");
    assertEquals(2, result.code());
    assertTrue(result.err().contains("already holds a run (found sim.log)"), result.err());
    assertEquals("old\n", Files.readString(tmp.resolve("sim.log")));
  }

  @Test
  void shouldPrintUsageOnStdoutForHelp() {
    Outputs.Result result = Outputs.run("--help");
    assertEquals(0, result.code());
    assertTrue(result.out().startsWith("usage: "), result.out());
  }

  @Test
  void shouldEndWithOneSummaryLineCountingEveryWrite() throws IOException {
    Path out = tmp.resolve("run");
    Outputs.Result result = Outputs.run("--out", out.toString(), "--jobs", "3", "--steps", "40",
        "--threads", "2");
    assertEquals(0, result.code(), result.err());
    List<String> lines = result.out().lines().toList();
    assertEquals(1, lines.size(), result.out());
    JsonNode summary = new ObjectMapper().readTree(lines.get(0));
    assertEquals(List.of("elapsedMillis", "docWrites", "logRecords", "emits"),
        iterable(summary.fieldNames()));
    assertEquals(120, summary.get("docWrites").asLong());
    assertEquals(120, summary.get("logRecords").asLong());
    assertEquals(120, summary.get("emits").asLong());
    assertEquals(120, Files.readAllLines(out.resolve("sim.log")).size());
    assertEquals(120, Files.readAllLines(out.resolve("emits.jsonl")).size());
    assertEquals(3, Outputs.documents(out).size());
    assertTrue(result.err().contains("progress: 100% (120/120 steps)"), result.err());
    assertFalse(Files.exists(out.resolve("sim.log.lck")), "the handler was closed");
  }

  @Test
  void shouldExitWithCode2FromTheRealMainInAFreshJvm() throws Exception {
    Process p = java("dev.spool.sample.SampleApp", "--steps", "1").start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue());
    assertTrue(err.contains("--out DIR is required") && err.contains("usage: "), err);
  }

  @Test
  void shouldStayAliveWithHoldAndSayHowToLookInside() throws Exception {
    Path out = tmp.resolve("held");
    Process p = java("dev.spool.sample.SampleApp", "--out", out.toString(), "--jobs", "1",
        "--steps", "5", "--threads", "1", "--hold").start();
    try (BufferedReader err = new BufferedReader(
        new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      String holding = null;
      while (holding == null && (line = err.readLine()) != null) {
        if (line.startsWith("holding:")) {
          holding = line;
        }
      }
      assertTrue(holding != null && holding.contains("pid " + p.pid()), String.valueOf(holding));
      assertTrue(err.readLine().contains("jconsole " + p.pid()));
      assertTrue(p.isAlive(), "still running after the run");
      String summary = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertTrue(summary.startsWith("{\"elapsedMillis\":"), summary);
    } finally {
      p.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
    }
  }

  private static ProcessBuilder java(String mainClass, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  private static List<String> iterable(java.util.Iterator<String> it) {
    List<String> list = new java.util.ArrayList<>();
    it.forEachRemaining(list::add);
    return list;
  }
}
