package dev.spool.bench.agent;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The caller's CPU time per JUL record, without exceptions (whose stack traces dominate
 * {@link JulIssueRounds}): two threads log through one {@code FileHandler} with the default
 * {@code SimpleFormatter}, alternately a message with two immutable parameters (deferred to the
 * writer) and a ready text. Run with the agent twice, {@code spool.sink.journal=true} and
 * {@code false}, alternately: the difference is the JUL journal's cost at the call (issue 33).
 * CPU time per record holds on a loaded machine as a ratio; wall times do not. Usage:
 * {@code -javaagent:agent/target/spool-agent.jar[=spool.sink.journal=false] -cp bench/target/benchmarks.jar
 * dev.spool.bench.agent.JulCallerCostRounds [rounds] [records per thread]}.
 */
public final class JulCallerCostRounds {

    private JulCallerCostRounds() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 300_000;
        try (TempFileLogger host = new TempFileLogger("jul-caller-cost", "bench.callerCost", "app.log")) {
            Logger logger = host.logger;
            for (int r = 0; r < rounds; r++) {
                long cpu = host.runThreads(2, id -> {
                    for (int i = 0; i < records; i++) {
                        if ((i & 1) == 0) {
                            logger.log(Level.INFO, "request {0} served in {1} ms", new Object[] {i, 3});
                        } else {
                            logger.info("job " + i + " finished with status ok");
                        }
                    }
                });
                System.out.printf("round=%d caller_cpu_ns_per_record=%d%n", r, cpu / (2L * records));
            }
        }
    }
}
