package dev.spool.agent.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.FileHandler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host: a {@code FileHandler} subclass that reads its own file inside its {@code publish}
 * (holding its own monitor), after each record, as a "tail" view of the log might. Usage:
 * {@code LogReadInPublishHost <dir> <records>}; prints the line count each read found.
 */
public final class LogReadInPublishHost {

    /** Reads its file after writing each record. */
    static final class Tailing extends FileHandler {
        final Path file;
        final List<Integer> seen = new ArrayList<>();

        Tailing(Path file) throws IOException {
            super(file.toString());
            this.file = file;
        }

        @Override
        public synchronized void publish(LogRecord record) {
            super.publish(record);
            try {
                seen.add(Files.readAllLines(file).size());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%5$s%n");
        Tailing handler = new Tailing(Path.of(args[0]).resolve("tail.log"));
        handler.setFormatter(new SimpleFormatter());
        Logger logger = Logger.getLogger("host.tail");
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
        for (int i = 0; i < Integer.parseInt(args[1]); i++) {
            logger.info("record " + i);
        }
        handler.close();
        System.out.println("seen " + handler.seen);
    }
}
