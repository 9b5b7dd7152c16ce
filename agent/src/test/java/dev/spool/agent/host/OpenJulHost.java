package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for attach to a running application: opens a JUL {@code FileHandler} on
 * {@code <dir>/app.log} (SimpleFormatter, a format without time) at start, prints {@code ready},
 * then reads commands from stdin: {@code log N} logs the next N numbered records and answers
 * {@code logged <total>}. End of input closes the handler and exits.
 */
public final class OpenJulHost {

    public static void main(String[] args) throws Exception {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%n");
        Logger logger = Logger.getLogger("open.jul.host");
        logger.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(args[0] + "/app.log", false);
        handler.setFormatter(new SimpleFormatter());
        handler.setEncoding("UTF-8");
        logger.addHandler(handler);
        System.out.println("ready");
        System.out.flush();
        int total = 0;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("log ")) {
                int n = Integer.parseInt(line.substring(4).trim());
                for (int i = 0; i < n; i++) {
                    total++;
                    logger.log(Level.INFO, "record {0} of the run, é ü 漢", total);
                }
                System.out.println("logged " + total);
                System.out.flush();
            }
        }
        handler.close();
    }
}
