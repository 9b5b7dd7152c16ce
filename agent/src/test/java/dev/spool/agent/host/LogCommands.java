package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The command loop of the attach hosts ({@link OpenJulHost}, {@link OpenLogbackHost}): prints
 * {@code ready}, then reads commands from standard input: {@code log N} logs the next N numbered
 * records and answers {@code logged <total>}. Returns at the end of input (the host then closes
 * its logs). Example:
 * <pre>{@code
 * LogCommands.serve(n -> logger.info("record " + n));
 * }</pre>
 */
final class LogCommands {
    /** Logs the record numbered {@code n} (from 1). */
    @FunctionalInterface
    interface Record {
        void log(int n) throws Exception;
    }

    private LogCommands() {
    }

    static void serve(Record record) throws Exception {
        System.out.println("ready");
        System.out.flush();
        int total = 0;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("log ")) {
                int n = Integer.parseInt(line.substring(4).trim());
                for (int i = 0; i < n; i++) {
                    record.log(++total);
                }
                System.out.println("logged " + total);
                System.out.flush();
            }
        }
    }
}
