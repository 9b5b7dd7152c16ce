package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelectedPathsTest {

    private final SelectedPaths paths = new SelectedPaths(new PathFilter(List.of("**/*.json"), List.of("**/scratch/**")));

    @Test
    void shouldGiveTheAbsolutePathOfASelectedFileWithItsDotDotsKept() {
        // link/../doc.json is the file beside the folder link points to: only the OS may resolve the ".."
        Path p = paths.of(new File("jobs/link/../1/doc.json"));
        assertEquals(Path.of("jobs/link/../1/doc.json").toAbsolutePath(), p);
    }

    @Test
    void shouldMatchTheGlobsAgainstTheNormalisedPath() {
        assertNull(paths.of(new File("/data/scratch/deeper/../x.json")));
        assertEquals(Path.of("/data/x/../y.json"), paths.of(new File("/data/x/../y.json")));
    }

    @Test
    void shouldGiveTheSamePathInstanceForTheSameNameEveryCall() {
        Path first = paths.of(new File("/data/jobs/1/doc.json"));
        assertSame(first, paths.of(new File("/data/jobs/1/doc.json")));
        assertSame(first, paths.of(new File(new File("/data/jobs/1"), "doc.json")));
    }

    @Test
    void shouldNotSelectExcludedOrNonMatchingFilesOnAnyCall() {
        for (int i = 0; i < 3; i++) {
            assertNull(paths.of(new File("/data/scratch/x.json")));
            assertNull(paths.of(new File("/data/x.txt")));
        }
    }

    @Test
    void shouldAnswerTheSameAfterTheCacheWasClearedWhenFull() {
        Path first = paths.of(new File("/data/a.json"));
        for (int i = 0; i <= SelectedPaths.CACHE_LIMIT; i++) {
            paths.of(new File("/data/many/" + i + ".json"));
        }
        assertEquals(first, paths.of(new File("/data/a.json")));
        assertNull(paths.of(new File("/data/scratch/x.json")));
    }
}
