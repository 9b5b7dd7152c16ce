package dev.spool.sample.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Compares two runs of the sample app and prints them side by side with a verdict.
 *
 * <pre>
 * java -cp spool-sample.jar dev.spool.sample.demo.RunComparator \
 *     --without DIR [--without-records FILE] [--without-stdout FILE] [--without-wall-millis N] \
 *     --with DIR    [--with-records FILE]    [--with-stdout FILE]    [--with-wall-millis N]
 * </pre>
 * Records default to {@code DIR/emits.jsonl}. With the stdout files, the runs' summary lines are
 * shown and checked too. Exit codes: 0 the same, 1 different (the first difference is printed),
 * 2 bad arguments or unreadable input.
 */
public final class RunComparator {
  public static final int EXIT_SAME = 0;
  public static final int EXIT_DIFFERENT = 1;
  public static final int EXIT_USAGE = 2;

  static final String USAGE = "usage: RunComparator --without DIR [--without-records FILE]"
      + " [--without-stdout FILE] [--without-wall-millis N]\n"
      + "                     --with DIR [--with-records FILE] [--with-stdout FILE]"
      + " [--with-wall-millis N]\n";

  private RunComparator() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Compares, prints the table and the verdict to {@code out}, and returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    RunOutputs a;
    RunOutputs b;
    try {
      a = runOf("without", "without agent", args);
      b = runOf("with", "with agent", args);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.print(USAGE);
      return EXIT_USAGE;
    }
    Comparison comparison;
    try {
      comparison = compare(a, b);
    } catch (IOException | RuntimeException e) {
      err.println("error: cannot compare the runs: " + e);
      return EXIT_USAGE;
    }
    SideBySide.print(comparison, out);
    return comparison.identical() ? EXIT_SAME : EXIT_DIFFERENT;
  }

  /** Runs every check; summaries are checked only when at least one run names its stdout. */
  public static Comparison compare(RunOutputs a, RunOutputs b) throws IOException {
    List<CheckResult> checks = new ArrayList<>();
    checks.add(DocumentTrees.compare(a, b));
    checks.add(LogLines.compare(a, b));
    checks.add(JsonRecords.compare(a, b));
    JsonNode summaryA = Summaries.read(a.stdout());
    JsonNode summaryB = Summaries.read(b.stdout());
    if (a.stdout() != null || b.stdout() != null) {
      checks.add(Summaries.compare(a, summaryA, b, summaryB,
          logLines(a), logLines(b), records(a), records(b)));
    }
    return new Comparison(a, b, summaryA, summaryB, List.copyOf(checks));
  }

  private static int logLines(RunOutputs run) throws IOException {
    Path log = run.dir().resolve(LogLines.FILE);
    return Files.isRegularFile(log) ? LogLines.lines(log).size() : -1;
  }

  private static int records(RunOutputs run) throws IOException {
    JsonRecords.Parsed parsed = JsonRecords.parse(run.records());
    return parsed.error() == null ? parsed.values().size() : -1;
  }

  private static RunOutputs runOf(String prefix, String label, String[] args) {
    Path dir = null;
    Path records = null;
    Path stdout = null;
    OptionalLong wall = OptionalLong.empty();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument: " + arg);
      }
      String option = arg.substring(2);
      if (!isKnown(option)) {
        throw new IllegalArgumentException("unknown option: " + arg);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      String value = args[++i];
      if (option.equals(prefix)) {
        dir = Path.of(value);
      } else if (option.equals(prefix + "-records")) {
        records = Path.of(value);
      } else if (option.equals(prefix + "-stdout")) {
        stdout = Path.of(value);
      } else if (option.equals(prefix + "-wall-millis")) {
        wall = OptionalLong.of(millis(arg, value));
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--" + prefix + " DIR is required");
    }
    return new RunOutputs(label, dir, records != null ? records : dir.resolve("emits.jsonl"),
        stdout, wall);
  }

  private static boolean isKnown(String option) {
    for (String prefix : List.of("without", "with")) {
      for (String suffix : List.of("", "-records", "-stdout", "-wall-millis")) {
        if (option.equals(prefix + suffix)) {
          return true;
        }
      }
    }
    return false;
  }

  private static long millis(String option, String value) {
    try {
      long ms = Long.parseLong(value);
      if (ms >= 0) {
        return ms;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("--" + option.substring(2) + " needs milliseconds >= 0, got: " + value);
  }
}
