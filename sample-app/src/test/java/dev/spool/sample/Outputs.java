package dev.spool.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Test helpers: run the app in this JVM, read what a run left behind. */
final class Outputs {
  private Outputs() {}

  /** The exit code and both streams of one in-process run. */
  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
         PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = SampleApp.run(args, o, e);
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Every file under {@code dir/jobs}, by relative path, with its bytes as text. */
  static TreeMap<String, String> documents(Path dir) throws IOException {
    TreeMap<String, String> docs = new TreeMap<>();
    Path root = dir.resolve("jobs");
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        docs.put(root.relativize(p).toString(), Files.readString(p));
      }
    }
    return docs;
  }

  /** The lines of a file, sorted: what is left when the interleaving of threads is ignored. */
  static List<String> sortedLines(Path file) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.sort(null);
    return lines;
  }
}
