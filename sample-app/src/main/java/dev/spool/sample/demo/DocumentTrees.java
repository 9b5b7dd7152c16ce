package dev.spool.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Compares the {@code jobs/} folders of two runs: the same relative file names, and every file
 * byte for byte. Any file beside the documents (a leftover temp or conflict file) is a difference.
 */
final class DocumentTrees {
  static final String NAME = "documents";
  private static final int SNIPPET = 32;

  private DocumentTrees() {}

  static CheckResult compare(RunOutputs a, RunOutputs b) throws IOException {
    Path rootA = a.dir().resolve("jobs");
    Path rootB = b.dir().resolve("jobs");
    for (RunOutputs run : List.of(a, b)) {
      if (!Files.isDirectory(run.dir().resolve("jobs"))) {
        return CheckResult.differs(NAME, "jobs/*/doc.json",
            "the run " + run.label() + " has no jobs/ folder in " + run.dir());
      }
    }
    TreeSet<String> filesA = files(rootA);
    TreeSet<String> filesB = files(rootB);
    String detail = filesA.size() + " files under jobs/";
    if (filesA.isEmpty()) {
      return CheckResult.differs(NAME, detail, "the run " + a.label() + " wrote no documents");
    }
    TreeSet<String> onlyA = new TreeSet<>(filesA);
    onlyA.removeAll(filesB);
    TreeSet<String> onlyB = new TreeSet<>(filesB);
    onlyB.removeAll(filesA);
    if (!onlyA.isEmpty() || !onlyB.isEmpty()) {
      boolean inA = !onlyA.isEmpty()
          && (onlyB.isEmpty() || onlyA.first().compareTo(onlyB.first()) < 0);
      String file = inA ? onlyA.first() : onlyB.first();
      String label = inA ? a.label() : b.label();
      return CheckResult.differs(NAME, detail, "jobs/" + file + " exists only in the run " + label
          + " (" + onlyA.size() + " files only in the run " + a.label() + ", "
          + onlyB.size() + " only in the run " + b.label() + ")");
    }
    for (String file : filesA) {
      Path fileA = rootA.resolve(file);
      Path fileB = rootB.resolve(file);
      long at = Files.mismatch(fileA, fileB);
      if (at >= 0) {
        return CheckResult.differs(NAME, detail, describe(file, fileA, fileB, at, a, b));
      }
    }
    return CheckResult.same(NAME, filesA.size() + " files, byte-identical");
  }

  /** Relative paths ('/'-separated) of the regular files under {@code root}. */
  private static TreeSet<String> files(Path root) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(p -> !Files.isDirectory(p))
          .forEach(p -> names.add(root.relativize(p).toString().replace('\\', '/')));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return names;
  }

  private static String describe(String file, Path fileA, Path fileB, long at,
      RunOutputs a, RunOutputs b) throws IOException {
    byte[] bytesA = Files.readAllBytes(fileA);
    byte[] bytesB = Files.readAllBytes(fileB);
    int line = 1;
    int column = 1;
    for (int i = 0; i < at && i < bytesA.length; i++) {
      if (bytesA[i] == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return "jobs/" + file + " differs at byte " + at + " (line " + line + ", column " + column
        + "; " + bytesA.length + " vs " + bytesB.length + " bytes): "
        + "the run " + a.label() + " has " + snippet(bytesA, at) + ", "
        + "the run " + b.label() + " has " + snippet(bytesB, at);
  }

  private static String snippet(byte[] bytes, long at) {
    if (at >= bytes.length) {
      return "<end of file>";
    }
    int from = (int) at;
    while (from > 0 && bytes[from - 1] != '\n' && at - from < SNIPPET) {
      from--; // from the start of the line, unless it is long
    }
    int to = (int) Math.min(bytes.length, at + SNIPPET);
    String text = new String(bytes, from, to - from, StandardCharsets.UTF_8);
    String escaped = text.replace("\n", "\\n").replace("\r", "\\r");
    return "\"" + (from > 0 ? "…" : "") + escaped + (to < bytes.length ? "…" : "") + "\"";
  }
}
