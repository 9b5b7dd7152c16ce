package dev.spool.agent.host;

import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Test host with a JUL → SLF4J → Logback chain: JUL records go to a JUL {@code FileHandler}
 * ({@code <dir>/jul.log}) and through jul-to-slf4j's {@code SLF4JBridgeHandler} to Logback's
 * {@code FileAppender} (configured by {@code -Dlogback.configurationFile}). Each line must appear
 * once in each file, with or without the agent. Usage: {@code BridgeChainHost <dir> <records>}.
 */
public final class BridgeChainHost {

    public static void main(String[] args) throws Exception {
        int records = Integer.parseInt(args[1]);
        Logger logger = Logger.getLogger("chain");
        logger.setUseParentHandlers(false);
        FileHandler jul = new FileHandler(args[0] + "/jul.log");
        jul.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return r.getLevel() + " " + r.getMessage() + "\n";
            }
        });
        logger.addHandler(jul);
        Handler bridge = (Handler) Class.forName("org.slf4j.bridge.SLF4JBridgeHandler").getConstructor().newInstance();
        logger.addHandler(bridge);
        for (int i = 0; i < records; i++) {
            logger.log(Level.INFO, "chained record " + i);
        }
        jul.close();
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context);
        System.out.println("written");
    }
}
