package dev.spool.sample.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares the two runs' {@code sim.log}: the same lines, each as often, in any order. Lines are
 * compared byte for byte (a final line without its newline is different from one with it).
 */
final class LogLines {
  static final String NAME = "log";
  static final String FILE = "sim.log";
  private static final String NO_NEWLINE = "\u0000(no final newline)";
  private static final int SHOW = 160;

  private LogLines() {}

  static CheckResult compare(RunOutputs a, RunOutputs b) throws IOException {
    Path fileA = a.dir().resolve(FILE);
    Path fileB = b.dir().resolve(FILE);
    for (RunOutputs run : List.of(a, b)) {
      if (!Files.isRegularFile(run.dir().resolve(FILE))) {
        return CheckResult.differs(NAME, FILE, "the run " + run.label() + " has no " + FILE
            + " in " + run.dir());
      }
    }
    List<String> linesA = lines(fileA);
    List<String> linesB = lines(fileB);
    String detail = FILE + ", " + linesA.size() + " lines";
    Unmatched unmatched = Unmatched.of(linesA, linesB);
    if (unmatched.none()) {
      return CheckResult.same(NAME, detail + ", the same lines");
    }
    String counts = " (" + linesA.size() + " vs " + linesB.size() + " lines; "
        + unmatched.inA().size() + " unmatched in the run " + a.label() + ", "
        + unmatched.inB().size() + " in the run " + b.label() + ")";
    if (!unmatched.inA().isEmpty()) {
      int i = unmatched.inA().get(0);
      return CheckResult.differs(NAME, detail, FILE + " line " + (i + 1) + " of the run " + a.label()
          + " is missing from the run " + b.label() + ": " + show(linesA.get(i)) + counts);
    }
    int j = unmatched.inB().get(0);
    return CheckResult.differs(NAME, detail, FILE + " line " + (j + 1) + " of the run " + b.label()
        + " is not in the run " + a.label() + ": " + show(linesB.get(j)) + counts);
  }

  /** The file's lines, split at '\n' only, bytes kept as they are (ISO-8859-1 is 1:1). */
  static List<String> lines(Path file) throws IOException {
    String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    List<String> lines = new ArrayList<>();
    int from = 0;
    while (from < text.length()) {
      int end = text.indexOf('\n', from);
      if (end < 0) {
        lines.add(text.substring(from) + NO_NEWLINE);
        break;
      }
      lines.add(text.substring(from, end));
      from = end + 1;
    }
    return lines;
  }

  private static String show(String line) {
    String utf8 = new String(line.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)
        .replace('\u0000', ' ');
    return "\"" + (utf8.length() > SHOW ? utf8.substring(0, SHOW) + "…" : utf8) + "\"";
  }
}
