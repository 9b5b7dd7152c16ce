package dev.spool.agent.host;

import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for attach to a running application: opens a JUL {@code FileHandler} on
 * {@code <dir>/app.log} (SimpleFormatter, a format without time) at start, then serves
 * {@link LogCommands} ({@code log N} logs the next N numbered records). End of input closes the
 * handler and exits.
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
        LogCommands.serve(n -> logger.log(Level.INFO, "record {0} of the run, é ü 漢", n));
        handler.close();
    }
}
