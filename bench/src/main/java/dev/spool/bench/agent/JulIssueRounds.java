package dev.spool.bench.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Issue 13's JUL workload ({@link JulIssueWorkload}'s records, threads and handler) repeated in one
 * JVM: round 0 is the workload as {@code scripts/jul-workload.sh} times it (a cold JVM), the later
 * rounds the same records once the JIT has compiled the path. Per round: wall time, and CPU time
 * per record of the callers, of Spool's capture writer threads ({@code spool-capture-writer-*}, 0
 * without the agent) and of the whole process (JIT compiler and GC threads included). CPU time
 * holds on a loaded machine; compare rounds and runs, not wall times. Usage:
 * {@code [-javaagent:agent/target/spool-agent.jar] -cp bench/target/benchmarks.jar dev.spool.bench.agent.JulIssueRounds [rounds] [records]}.
 */
public final class JulIssueRounds {

    private JulIssueRounds() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : JulIssueWorkload.RECORDS;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (TempFileLogger host = new TempFileLogger("jul-rounds", "bench.issue13", "jul-workload.log")) {
            for (int r = 0; r < rounds; r++) {
                long writer0 = writerCpu(mx);
                long process0 = os.getProcessCpuTime();
                long wall0 = System.nanoTime();
                long callers = host.runThreads(JulIssueWorkload.THREADS,
                        id -> JulIssueWorkload.logRecords(host.logger, id, records));
                System.out.printf("round=%d wall_ms=%d caller_cpu_ns_per_record=%d writer_cpu_ns_per_record=%d process_cpu_ns_per_record=%d%n",
                        r, (System.nanoTime() - wall0) / 1_000_000, callers / records,
                        (writerCpu(mx) - writer0) / records, (os.getProcessCpuTime() - process0) / records);
            }
        }
    }

    /** CPU time so far of the live threads named {@code spool-capture-writer-*}. */
    private static long writerCpu(ThreadMXBean mx) {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("spool-capture-writer-")) {
                long cpu = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }
}
