package dev.spool.sample;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The sample app's entry point:
 * {@code java [-javaagent:...] -jar spool-sample.jar --out DIR --jobs N --steps N --threads N [--hold]}.
 * Prints progress on stderr and, at the end, one JSON line on stdout:
 * {@code {"elapsedMillis":…,"docWrites":…,"logRecords":…,"emits":…}}.
 * Exit codes: 0 done, 1 the run failed, 2 bad arguments.
 */
public final class SampleApp {
  static final int EXIT_OK = 0;
  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;

  /** What a run creates in its folder; a folder holding any of them is not fresh. */
  static final List<String> OUTPUTS = List.of("jobs", "sim.log", "emits.jsonl");

  private SampleApp() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    if (code != EXIT_OK) {
      System.exit(code);
    }
  }

  /** Runs the app and returns its exit code (blocks for good with {@code --hold}). */
  static int run(String[] argv, PrintStream out, PrintStream err) {
    AppArgs args;
    try {
      args = AppArgs.parse(argv);
      if (args.help()) {
        out.print(AppArgs.USAGE);
        return EXIT_OK;
      }
      requireFresh(args.out());
    } catch (UsageException e) {
      err.println("error: " + e.getMessage());
      err.print(AppArgs.USAGE);
      return EXIT_USAGE;
    }
    err.println("starting: pid " + ProcessHandle.current().pid() + ", " + args.jobs() + " jobs x "
        + args.steps() + " steps on " + args.threads() + " threads, into " + args.out());
    RunSummary summary;
    try {
      summary = new Simulation(args, err).run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("error: interrupted");
      return EXIT_FAILED;
    } catch (Exception e) {
      err.println("error: the run failed: " + e);
      return EXIT_FAILED;
    }
    out.println(summary.toJson());
    out.flush();
    if (args.hold()) {
      hold(err);
    }
    return EXIT_OK;
  }

  static void requireFresh(Path dir) throws UsageException {
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      throw new UsageException("--out " + dir + " is not a folder");
    }
    for (String name : OUTPUTS) {
      if (Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
        throw new UsageException("--out " + dir + " already holds a run (found " + name
            + "); choose a fresh folder");
      }
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UsageException("--out " + dir + " cannot be created: " + e.getMessage());
    }
  }

  private static void hold(PrintStream err) {
    long pid = ProcessHandle.current().pid();
    err.println("holding: the run is over and the JVM stays alive, pid " + pid + ".");
    err.println("  Look inside with: jconsole " + pid
        + "   (MBeans tab, then the dev.spool folder when the Spool agent is attached)");
    err.println("  Press Ctrl+C to exit.");
    err.flush();
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
