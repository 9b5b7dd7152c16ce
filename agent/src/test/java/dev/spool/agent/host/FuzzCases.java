package dev.spool.agent.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The run of a differential fuzz host ({@link JulFuzzHost}, {@link LogbackFuzzHost}): arguments
 * {@code <seed> <first case> <end case> <dir>}, each case of {@code [first, end)} into its own folder
 * {@code <dir>/case-<n>}, then {@code done} on standard output (what the test waits for). A case is a
 * pure function of the seed and its number ({@link #caseSeed}), so it replays alone. Example:
 * <pre>{@code
 * public static void main(String[] args) throws Exception { FuzzCases.runAll(args, MyFuzzHost::runCase); }
 * }</pre>
 */
final class FuzzCases {
    /** One case: writes its files into {@code dir} and prints its line. */
    @FunctionalInterface
    interface Case {
        void run(long seed, int c, Path dir) throws Exception;
    }

    private FuzzCases() {
    }

    static void runAll(String[] args, Case each) throws Exception {
        long seed = Long.parseLong(args[0]);
        int first = Integer.parseInt(args[1]);
        int end = Integer.parseInt(args[2]);
        Path dir = Path.of(args[3]);
        for (int c = first; c < end; c++) {
            each.run(seed, c, Files.createDirectories(dir.resolve("case-" + c)));
        }
        System.out.println("done");
    }

    /** Case {@code c}'s own seed, spread first: {@code java.util.Random}'s first draws follow close seeds. */
    static long caseSeed(long seed, int c) {
        return new SplittableRandom(seed * 1_000_003L + c).nextLong();
    }
}
