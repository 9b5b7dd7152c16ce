package dev.spool.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's checker against two real runs of the packaged app ({@code spool-sample.jar}, run with
 * {@code java -jar} like the demo does): they compare equal, and each planted difference makes
 * the checker fail with exit code 1 and name it.
 */
class RunComparatorIT {
  @TempDir static Path runs;
  static Path first;
  static Path second;
  @TempDir Path tmp;

  @BeforeAll
  static void runTheAppTwice() throws Exception {
    first = runApp("first", 2);
    second = runApp("second", 3);
  }

  private static Path runApp(String name, int threads) throws Exception {
    String jar = System.getProperty("spool.sample.jar");
    assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "packaged jar: " + jar);
    Path dir = runs.resolve(name);
    Path stdout = runs.resolve(name + ".stdout");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar, "--out", dir.toString(), "--jobs", "4", "--steps", "60", "--threads",
        Integer.toString(threads))
        .redirectOutput(stdout.toFile())
        .redirectError(runs.resolve(name + ".stderr").toFile())
        .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " run finished");
    assertEquals(0, p.exitValue(), Files.readString(runs.resolve(name + ".stderr")));
    return dir;
  }

  /** Compares {@code first} with {@code candidate} through the command line; exit code and output. */
  private record Outcome(int code, String out) {}

  private static Outcome compare(Path candidate) {
    return compare(candidate, candidate.resolve("emits.jsonl"), runs.resolve("second.stdout"));
  }

  private static Outcome compare(Path candidate, Path records, Path stdout) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = RunComparator.run(new String[] {
        "--without", first.toString(), "--without-stdout", runs.resolve("first.stdout").toString(),
        "--with", candidate.toString(), "--with-records", records.toString(),
        "--with-stdout", stdout.toString(),
        "--without-wall-millis", "900", "--with-wall-millis", "300"},
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
  }

  /** A copy of the second run to plant a difference in. */
  private Path copyOfSecond() throws IOException {
    Path copy = tmp.resolve("planted");
    try (Stream<Path> walk = Files.walk(second)) {
      for (Path p : walk.toList()) {
        Files.copy(p, copy.resolve(second.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    return copy;
  }

  private static void edit(Path file, UnaryOperator<List<String>> change) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    Files.write(file, change.apply(lines));
  }

  private static void assertFailsNaming(Outcome outcome, String... expected) {
    assertEquals(RunComparator.EXIT_DIFFERENT, outcome.code(), outcome.out());
    String verdict = outcome.out().lines().filter(l -> l.startsWith("VERDICT:")).findFirst().orElse("");
    for (String part : expected) {
      assertTrue(verdict.contains(part), "verdict names " + part + ":\n" + outcome.out());
    }
  }

  @Test
  void shouldFindTwoRealRunsTheSame() {
    Outcome outcome = compare(second);
    assertEquals(RunComparator.EXIT_SAME, outcome.code(), outcome.out());
    assertTrue(outcome.out().contains("documents  same  4 files, byte-identical"), outcome.out());
    assertTrue(outcome.out().contains("log        same  sim.log, 240 lines, the same lines"));
    assertTrue(outcome.out().contains("records    same  240 records, the same set"));
    assertTrue(outcome.out().contains("speed-up 3.0x"), outcome.out());
    assertTrue(outcome.out().contains("VERDICT: same results."));
  }

  @Test
  void shouldFailNamingAChangedByteOfADocument() throws IOException {
    Path planted = copyOfSecond();
    Path doc = planted.resolve("jobs/job-002/doc.json");
    byte[] bytes = Files.readAllBytes(doc);
    int at = new String(bytes, StandardCharsets.UTF_8).indexOf("\"step\":60") + 8;
    bytes[at] = '1';
    Files.write(doc, bytes);
    assertFailsNaming(compare(planted), "documents: jobs/job-002/doc.json differs at byte " + at,
        "\"step\":61");
  }

  @Test
  void shouldFailNamingAFileLeftBesideTheDocuments() throws IOException {
    Path planted = copyOfSecond();
    Files.writeString(planted.resolve("jobs/job-001/doc.json.tmp123"), "{}");
    assertFailsNaming(compare(planted),
        "jobs/job-001/doc.json.tmp123 exists only in the run with agent");
  }

  @Test
  void shouldFailNamingAMissingLogOrRecordsFile() throws IOException {
    Path planted = copyOfSecond();
    Files.delete(planted.resolve("sim.log"));
    assertFailsNaming(compare(planted), "log: the run with agent has no sim.log in " + planted);
    assertFailsNaming(compare(second, tmp.resolve("absent.jsonl"), runs.resolve("second.stdout")),
        "records: no records file " + tmp.resolve("absent.jsonl"));
  }

  @Test
  void shouldFailNamingAChangedLogLine() throws IOException {
    Path planted = copyOfSecond();
    edit(planted.resolve("sim.log"), lines -> {
      lines.set(17, lines.get(17).replace("mean=", "mean=1"));
      return lines;
    });
    assertFailsNaming(compare(planted), "log: sim.log line ", "is missing from the run with agent");
  }

  @Test
  void shouldFailOnALostLogLine() throws IOException {
    Path planted = copyOfSecond();
    edit(planted.resolve("sim.log"), lines -> lines.subList(0, lines.size() - 1));
    assertFailsNaming(compare(planted), "240 vs 239 lines");
  }

  @Test
  void shouldFailNamingTheFieldOfAChangedRecord() throws IOException {
    Path planted = copyOfSecond();
    ObjectMapper mapper = new ObjectMapper();
    edit(planted.resolve("emits.jsonl"), lines -> {
      for (int i = 0; i < lines.size(); i++) {
        try {
          ObjectNode record = (ObjectNode) mapper.readTree(lines.get(i));
          if (record.get("job").asText().equals("job-003") && record.get("step").asInt() == 42) {
            var positions = (com.fasterxml.jackson.databind.node.ArrayNode) record.get("positions");
            positions.set(5, positions.get(5).floatValue()); // a double narrowed to a float
            lines.set(i, mapper.writeValueAsString(record));
          }
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
      return lines;
    });
    assertFailsNaming(compare(planted), "records: record ", "(job job-003, step 42) differs from",
        "/positions/5: ");
  }

  @Test
  void shouldFailOnADuplicatedRecordStandingInForALostOne() throws IOException {
    Path planted = copyOfSecond();
    edit(planted.resolve("emits.jsonl"), lines -> {
      lines.set(10, lines.get(11));
      return lines;
    });
    assertFailsNaming(compare(planted), "records: record ", "has no equal record in");
  }

  @Test
  void shouldFailOnALineThatIsNotJson() throws IOException {
    Path planted = copyOfSecond();
    edit(planted.resolve("emits.jsonl"), lines -> {
      lines.set(7, lines.get(7).substring(0, 30));
      return lines;
    });
    assertFailsNaming(compare(planted), "emits.jsonl line 8 is not one JSON value");
  }

  @Test
  void shouldFailWhenTheSummaryCountsDisagree() throws IOException {
    Path stdout = tmp.resolve("planted.stdout");
    Files.writeString(stdout, Files.readString(runs.resolve("second.stdout"))
        .replace("\"emits\":240", "\"emits\":241"));
    assertFailsNaming(compare(second, second.resolve("emits.jsonl"), stdout),
        "counts: emits is 240 in the run without agent and 241 in the run with agent");
  }

  /** What the event file's cat may do legitimately: other order, key order, number spelling. */
  @Test
  void shouldAcceptRecordsReorderedAndSpelledDifferently() throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    List<String> lines = new ArrayList<>(Files.readAllLines(second.resolve("emits.jsonl")));
    Collections.shuffle(lines, new Random(7));
    List<String> respelled = new ArrayList<>();
    for (String line : lines) {
      JsonNode record = mapper.readTree(line);
      List<String> names = new ArrayList<>();
      record.fieldNames().forEachRemaining(names::add);
      Collections.reverse(names);
      StringBuilder out = new StringBuilder("{ ");
      for (String name : names) {
        JsonNode value = record.get(name);
        out.append('"').append(name).append("\" : ")
            .append(value.isDouble() ? new java.math.BigDecimal(value.doubleValue()).toString()
                : value.toString())
            .append(", ");
      }
      respelled.add(out.substring(0, out.length() - 2) + " }");
    }
    Path records = tmp.resolve("events.jsonl");
    Files.write(records, respelled);
    Outcome outcome = compare(second, records, runs.resolve("second.stdout"));
    assertEquals(RunComparator.EXIT_SAME, outcome.code(), outcome.out());
  }

  @Test
  void shouldExitWithCode2OnBadArguments() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = RunComparator.run(new String[] {"--with", "x", "--colour", "y"},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(RunComparator.EXIT_USAGE, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option: --colour"));
  }
}
