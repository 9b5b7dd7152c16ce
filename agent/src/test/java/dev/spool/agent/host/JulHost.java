package dev.spool.agent.host;

import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Test host: logs through a JUL {@code FileHandler} with size rotation ({@code limit} bytes,
 * {@code count} files) and a deterministic formatter. Usage:
 * {@code JulHost <pattern> <records> <limit> <count> [hold]}; prints {@code written} when done.
 */
public final class JulHost {

    public static void main(String[] args) throws Exception {
        String pattern = args[0];
        int records = Integer.parseInt(args[1]);
        int limit = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        boolean hold = args.length > 4 && args[4].equals("hold");
        Logger logger = Logger.getLogger("host");
        logger.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(pattern, limit, count, false);
        handler.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return r.getSequenceNumber() + " " + r.getLevel() + " " + formatMessage(r) + "\n";
            }
        });
        logger.addHandler(handler);
        for (int i = 0; i < records; i++) {
            logger.log(Level.INFO, "record {0} with some text to make the line longer: {1}", new Object[] {i, "x".repeat(i % 40)});
        }
        handler.flush();
        System.out.println("written");
        System.out.flush();
        if (hold) {
            while (System.in.read() >= 0) {
                // wait until the test closes stdin or kills this process
            }
        }
    }
}
