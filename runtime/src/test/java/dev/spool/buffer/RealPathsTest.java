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
    }

    @Test
    void shouldNotResolveDotDotThroughAMissingFolderAsTheOsCannot() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        // the host's own open of real/a/b/../c.json fails (a/b is missing): no key may name real/a/c.json
        assertThrows(java.io.UncheckedIOException.class, () -> RealPaths.of(real.resolve("a/b/../c.json")));
        assertThrows(java.io.UncheckedIOException.class, () -> RealPaths.of(real.resolve("missing/../c.json")));
        Files.createDirectories(real.resolve("a/b"));
        assertEquals(RealPaths.of(real).resolve("a/c.json"), RealPaths.of(real.resolve("a/b/../c.json")));
    }

    @Test
    void shouldCacheOnlyPathsThatResolveToThemselves() throws IOException {
        RealPaths.clearCache();
        Path real = Files.createDirectory(dir.toRealPath().resolve("plain"));
        Path link = Files.createSymbolicLink(dir.resolve("alias"), real);
        Path direct = real.resolve("doc.json");
        Path viaLink = link.resolve("doc.json");
        assertEquals(direct, RealPaths.of(direct));
        assertTrue(RealPaths.isCached(direct), "an identity resolution is cached");
        assertEquals(direct, RealPaths.of(viaLink));
        assertFalse(RealPaths.isCached(viaLink), "a path through a symlink is resolved every time");
    }

    @Test
    void shouldFollowASymlinkRetargetedAfterTheFirstResolution() throws IOException {
        RealPaths.clearCache();
        Path a = Files.createDirectory(dir.toRealPath().resolve("a"));
        Path b = Files.createDirectory(dir.toRealPath().resolve("b"));
        Path link = Files.createSymbolicLink(dir.resolve("current"), a);
        assertEquals(a.resolve("x.json"), RealPaths.of(link.resolve("x.json")));
        Files.delete(link);
        Files.createSymbolicLink(link, b);
        assertEquals(b.resolve("x.json"), RealPaths.of(link.resolve("x.json")));
    }

    @Test
    void shouldCacheAHundredThousandFileWorkingSetFromATwoGigabyteHeap() {
        assertEquals(65_536, RealPaths.cacheLimit(256L << 20)); // the old fixed limit: the floor
        assertEquals(131_072, RealPaths.cacheLimit(1L << 30));
        assertEquals(262_144, RealPaths.cacheLimit(2L << 30));
        assertEquals(262_144, RealPaths.cacheLimit(6L << 30)); // the cap: ~30 MB of paths
        assertEquals(262_144, RealPaths.cacheLimit(Long.MAX_VALUE));
    }
}
