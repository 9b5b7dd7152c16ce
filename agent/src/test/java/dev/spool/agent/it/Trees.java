package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Byte-for-byte comparison of two folders' regular files. */
final class Trees {

    private Trees() {}

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted()
                    .collect(Collectors.toList());
        }
    }

    static void assertSameFiles(Path expected, Path actual) throws IOException {
        List<String> names = names(expected);
        assertEquals(names, names(actual), "the same files in " + expected + " and " + actual);
        for (String name : names) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(name)), Files.readAllBytes(actual.resolve(name)),
                    "content of " + name);
        }
    }

    /** Lines of the host's stderr that come from Spool. */
    static List<String> spoolLines(String stderr) {
        return stderr.lines().filter(l -> l.startsWith("[spool]")).collect(Collectors.toList());
    }
}
