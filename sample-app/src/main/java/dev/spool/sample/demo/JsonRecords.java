package dev.spool.sample.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares the records two runs emitted, one JSON value per line, as multisets of parsed JSON
 * (see {@link CanonicalJson}): the order of lines is free, everything else is exact. A line that
 * is not JSON is a difference naming the file and line.
 */
final class JsonRecords {
  static final String NAME = "records";

  private JsonRecords() {}

  /** One file's records: the parsed values and their canonical texts, in file order. */
  record Parsed(Path file, List<JsonNode> values, List<String> canonical, String error) {}

  static CheckResult compare(RunOutputs a, RunOutputs b) throws IOException {
    Parsed pa = parse(a.records());
    Parsed pb = parse(b.records());
    for (Parsed p : List.of(pa, pb)) {
      if (p.error() != null) {
        return CheckResult.differs(NAME, "records", p.error());
      }
    }
    String detail = pa.values().size() + " records";
    if (pa.values().isEmpty()) {
      return CheckResult.differs(NAME, detail, a.records() + " holds no records");
    }
    Unmatched unmatched = Unmatched.of(pa.canonical(), pb.canonical());
    if (unmatched.none()) {
      return CheckResult.same(NAME, detail + ", the same set (compared as JSON)");
    }
    String counts = " (" + pa.values().size() + " vs " + pb.values().size() + " records; "
        + unmatched.inA().size() + " unmatched in the run " + a.label() + ", "
        + unmatched.inB().size() + " in the run " + b.label() + ")";
    return CheckResult.differs(NAME, detail, firstDifference(pa, pb, unmatched) + counts);
  }

  /**
   * The first unmatched record of {@code a} in file order; when {@code b} has an unmatched record
   * of the same job and step, the first field where they differ.
   */
  private static String firstDifference(Parsed a, Parsed b, Unmatched unmatched) {
    Map<Map.Entry<String, String>, Integer> byIdentityB = new HashMap<>();
    for (int j : unmatched.inB()) {
      byIdentityB.putIfAbsent(CanonicalJson.identity(b.values().get(j)), j);
    }
    if (!unmatched.inA().isEmpty()) {
      int i = unmatched.inA().get(0);
      JsonNode value = a.values().get(i);
      String where = where(a, i, value);
      Integer j = byIdentityB.get(CanonicalJson.identity(value));
      if (j != null) {
        return where + " differs from " + b.file() + " line " + (j + 1) + ": "
            + CanonicalJson.firstDifference(value, b.values().get(j), "");
      }
      return where + " has no equal record in " + b.file();
    }
    int j = unmatched.inB().get(0);
    return where(b, j, b.values().get(j)) + " has no equal record in " + a.file();
  }

  private static String where(Parsed p, int index, JsonNode value) {
    String job = CanonicalJson.member(value, "job");
    String step = CanonicalJson.member(value, "step");
    String named = job != null || step != null ? " (job " + job + ", step " + step + ")" : "";
    return "record " + p.file() + " line " + (index + 1) + named;
  }

  static Parsed parse(Path file) throws IOException {
    List<JsonNode> values = new ArrayList<>();
    List<String> canonical = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return new Parsed(file, values, canonical, "no records file " + file);
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank() && i == lines.size() - 1) {
        break; // a trailing empty line is not a record
      }
      try {
        JsonNode value = CanonicalJson.parse(line);
        if (value == null || value.isMissingNode()) {
          return new Parsed(file, values, canonical, file + " line " + (i + 1) + " is empty");
        }
        values.add(value);
        canonical.add(CanonicalJson.of(value));
      } catch (JsonProcessingException e) {
        return new Parsed(file, values, canonical, file + " line " + (i + 1)
            + " is not one JSON value: " + e.getOriginalMessage());
      }
    }
    return new Parsed(file, values, canonical, null);
  }
}
