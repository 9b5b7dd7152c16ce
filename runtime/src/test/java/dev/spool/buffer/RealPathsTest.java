package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealPathsTest {
    @TempDir
    Path dir;

    @Test
    void shouldResolveSymlinksAndDotDotForExistingAndMissingFiles() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        Files.createDirectory(dir.resolve("other"));
        Path viaLink = link.resolve("x.json");
        Path viaDots = dir.resolve("other/../real/x.json");
        assertEquals(RealPaths.of(real.resolve("x.json")), RealPaths.of(viaLink), "missing file");
        assertEquals(RealPaths.of(real.resolve("x.json")), RealPaths.of(viaDots), "missing file");
        Files.writeString(real.resolve("x.json"), "{}");
        assertEquals(RealPaths.of(real.resolve("x.json")), RealPaths.of(viaLink));
        assertEquals(RealPaths.of(real.resolve("x.json")), RealPaths.of(viaDots));
        assertEquals(RealPaths.of(real.resolve("a/b/../c.json")), RealPaths.of(real).resolve("a/c.json"));
    }
}
