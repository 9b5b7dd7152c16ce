package dev.spool.sample;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The sample app's jobs with no file output at all: the floors an agent run of the demo is
 * measured against (issue 12; {@code scripts/demo-floor.sh}, docs/BENCHMARKS.md). Same jobs, same
 * threads, same schedule and the same summary line as {@link SampleApp}; the outputs are
 * {@link MemoryOutputs} of the given mode, so the folder gets only the empty job folders.
 *
 * <pre>{@code
 * java -cp spool-sample.jar dev.spool.sample.FloorApp encoded|compute --out DIR [--jobs N] ...
 * }</pre>
 */
public final class FloorApp {
  private FloorApp() {}

  /** Runs the floor named by {@code argv[0]}; exits 0 on success, 2 on bad arguments, 1 on failure. */
  public static void main(String[] argv) {
    System.exit(run(argv, System.out, System.err));
  }

  static int run(String[] argv, PrintStream out, PrintStream err) {
    if (argv.length == 0) {
      err.println("usage: FloorApp encoded|compute --out DIR [--jobs N] [--steps N] [--threads N]");
      return SampleApp.EXIT_USAGE;
    }
    MemoryOutputs.Mode mode;
    AppArgs args;
    try {
      mode = switch (argv[0]) {
        case "encoded" -> MemoryOutputs.Mode.ENCODED;
        case "compute" -> MemoryOutputs.Mode.COMPUTE;
        default -> throw new UsageException("the floor is encoded or compute, got: " + argv[0]);
      };
      args = AppArgs.parse(Arrays.copyOfRange(argv, 1, argv.length));
      if (args.help() || args.hold()) {
        throw new UsageException(args.help() ? "no --help here: see the class's javadoc"
            : "a floor does not hold: --hold is the app's own (SampleApp)");
      }
      SampleApp.requireFresh(args.out());
    } catch (UsageException e) {
      err.println("error: " + e.getMessage());
      return SampleApp.EXIT_USAGE;
    }
    err.println("starting: floor " + argv[0] + ", " + args.jobs() + " jobs x " + args.steps()
        + " steps on " + args.threads() + " threads");
    MemoryOutputs outputs = new MemoryOutputs(mode);
    try {
      RunSummary summary = new Simulation(args, err, outputs).run();
      out.println(summary.toJson());
      err.println("kept " + outputs.keptUnits() + " units");
      return SampleApp.EXIT_OK;
    } catch (Exception e) {
      err.println("error: the run failed: " + e);
      return SampleApp.EXIT_FAILED;
    } finally {
      out.flush();
    }
  }
}
