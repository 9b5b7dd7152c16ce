package dev.spool.sample.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The runs' summary lines ({@code {"elapsedMillis":…,"docWrites":…,"logRecords":…,"emits":…}}),
 * read from their captured standard output, and the check that both runs report the same counts
 * and that the counts match what is in the files.
 */
final class Summaries {
  static final String NAME = "counts";
  static final List<String> COUNTS = List.of("docWrites", "logRecords", "emits");

  private Summaries() {}

  /** The last summary line of {@code stdout}, or null when there is none (or no file). */
  static JsonNode read(Path stdout) throws IOException {
    if (stdout == null || !Files.isRegularFile(stdout)) {
      return null;
    }
    List<String> lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
    for (int i = lines.size() - 1; i >= 0; i--) {
      String line = lines.get(i).trim();
      if (line.startsWith("{") && line.contains("\"elapsedMillis\"")) {
        JsonNode node = CanonicalJson.parse(line);
        if (COUNTS.stream().allMatch(k -> node.path(k).isIntegralNumber())) {
          return node;
        }
      }
    }
    return null;
  }

  /**
   * Both summaries report the same counts, and each matches its files: as many log lines and
   * records as reported. Null summaries skip the check (it is then not part of the verdict).
   */
  static CheckResult compare(RunOutputs a, JsonNode sa, RunOutputs b, JsonNode sb,
      int logLinesA, int logLinesB, int recordsA, int recordsB) {
    if (sa == null || sb == null) {
      RunOutputs missing = sa == null ? a : b;
      String why = missing.stdout() == null ? "not given"
          : "no summary line in " + missing.stdout();
      return CheckResult.differs(NAME, "summary lines", "the run " + missing.label()
          + "'s summary: " + why);
    }
    for (String key : COUNTS) {
      long va = sa.get(key).longValue();
      long vb = sb.get(key).longValue();
      if (va != vb) {
        return CheckResult.differs(NAME, "summary lines", key + " is " + va + " in the run "
            + a.label() + " and " + vb + " in the run " + b.label());
      }
    }
    String mismatch = againstFiles(a, sa, logLinesA, recordsA);
    if (mismatch == null) {
      mismatch = againstFiles(b, sb, logLinesB, recordsB);
    }
    return mismatch == null
        ? CheckResult.same(NAME, "summary lines agree with each other and with the files")
        : CheckResult.differs(NAME, "summary lines", mismatch);
  }

  private static String againstFiles(RunOutputs run, JsonNode summary, int logLines, int records) {
    long reportedLog = summary.get("logRecords").longValue();
    if (logLines >= 0 && reportedLog != logLines) {
      return "the run " + run.label() + " reported " + reportedLog + " log records but its "
          + LogLines.FILE + " has " + logLines + " lines";
    }
    long reportedEmits = summary.get("emits").longValue();
    if (records >= 0 && reportedEmits != records) {
      return "the run " + run.label() + " reported " + reportedEmits + " emits but "
          + run.records() + " holds " + records + " records";
    }
    return null;
  }
}
