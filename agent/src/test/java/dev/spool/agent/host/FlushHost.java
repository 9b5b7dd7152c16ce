package dev.spool.agent.host;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Test host: logs {@code records} lines through a JUL {@code FileHandler}, calls the handler's
 * {@code flush()}, and at once counts the lines its file holds: prints {@code visible <n>}.
 * Usage: {@code FlushHost <file> <records>}.
 */
public final class FlushHost {

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int records = Integer.parseInt(args[1]);
        Logger logger = Logger.getLogger("flush-host");
        logger.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(file.toString(), 0, 1, false);
        handler.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                return r.getSequenceNumber() + " " + r.getMessage() + "\n";
            }
        });
        logger.addHandler(handler);
        for (int i = 0; i < records; i++) {
            logger.info("record " + i);
        }
        handler.flush();
        long visible;
        try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            visible = lines.count();
        }
        System.out.println("visible " + visible);
        handler.close();
    }
}
