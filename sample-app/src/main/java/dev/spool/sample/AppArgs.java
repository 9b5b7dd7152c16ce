package dev.spool.sample;

import java.nio.file.Path;

/**
 * The sample app's command line, parsed and validated.
 *
 * <pre>
 * --out DIR      folder for jobs/&lt;id&gt;/doc.json, sim.log and emits.jsonl (required, must not
 *                already hold a run)
 * --jobs N       jobs in the parameter sweep   (default {@value #DEFAULT_JOBS})
 * --steps N      steps per job                 (default {@value #DEFAULT_STEPS})
 * --threads N    worker threads                (default {@value #DEFAULT_THREADS})
 * --hold         stay alive after the run (to look inside with JConsole)
 * </pre>
 */
public record AppArgs(Path out, int jobs, int steps, int threads, boolean hold, boolean help) {

  public static final int DEFAULT_JOBS = 16;
  public static final int DEFAULT_STEPS = 1000;
  public static final int DEFAULT_THREADS = 4;
  public static final int MAX_JOBS = 100_000;
  public static final int MAX_STEPS = 10_000_000;
  public static final int MAX_THREADS = 256;

  public static final String USAGE =
      "usage: java [-javaagent:...] -jar spool-sample.jar --out DIR [--jobs N] [--steps N]"
          + " [--threads N] [--hold]\n"
          + "  --out DIR    folder for jobs/<id>/doc.json, sim.log and emits.jsonl (a fresh one)\n"
          + "  --jobs N     jobs in the parameter sweep, 1.." + MAX_JOBS
          + " (default " + DEFAULT_JOBS + ")\n"
          + "  --steps N    steps per job, 1.." + MAX_STEPS + " (default " + DEFAULT_STEPS + ")\n"
          + "  --threads N  worker threads, 1.." + MAX_THREADS
          + " (default " + DEFAULT_THREADS + ")\n"
          + "  --hold       stay alive after the run, to look inside with JConsole\n"
          + "  --help       this text\n";

  /** Parses {@code args}; throws {@link UsageException} naming the offending argument. */
  public static AppArgs parse(String... args) throws UsageException {
    Path out = null;
    int jobs = DEFAULT_JOBS;
    int steps = DEFAULT_STEPS;
    int threads = DEFAULT_THREADS;
    boolean hold = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--help", "-h" -> {
          return new AppArgs(null, jobs, steps, threads, false, true);
        }
        case "--hold" -> hold = true;
        case "--out" -> {
          String value = value(args, i++);
          if (value.isBlank()) {
            throw new UsageException("--out needs a folder, got an empty value");
          }
          try {
            out = Path.of(value);
          } catch (RuntimeException e) {
            throw new UsageException("--out: not a valid path: " + value);
          }
        }
        case "--jobs" -> jobs = positive(arg, value(args, i++), MAX_JOBS);
        case "--steps" -> steps = positive(arg, value(args, i++), MAX_STEPS);
        case "--threads" -> threads = positive(arg, value(args, i++), MAX_THREADS);
        default -> throw new UsageException("unknown argument: " + arg);
      }
    }
    if (out == null) {
      throw new UsageException("--out DIR is required");
    }
    return new AppArgs(out, jobs, steps, threads, hold, false);
  }

  private static String value(String[] args, int optionIndex) throws UsageException {
    if (optionIndex + 1 >= args.length) {
      throw new UsageException(args[optionIndex] + " needs a value");
    }
    return args[optionIndex + 1];
  }

  private static int positive(String option, String value, int max) throws UsageException {
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(option + " needs a whole number, got: " + value);
    }
    if (n < 1 || n > max) {
      throw new UsageException(option + " must be between 1 and " + max + ", got: " + n);
    }
    return n;
  }
}
