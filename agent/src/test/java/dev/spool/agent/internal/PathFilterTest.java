package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathFilterTest {

    @Test
    void shouldMatchIncludedJsonFilesAnywhere_byDefault() {
        PathFilter f = new PathFilter(List.of("**/*.json"), List.of());
        assertTrue(f.matches(Path.of("/data/jobs/1/doc.json")));
        assertFalse(f.matches(Path.of("/data/jobs/1/doc.txt")));
    }

    @Test
    void shouldLetExcludeWin() {
        PathFilter f = new PathFilter(List.of("**/*.json"), List.of("**/tmp/**", "**/config.json"));
        assertFalse(f.matches(Path.of("/data/tmp/x.json")));
        assertFalse(f.matches(Path.of("/data/config.json")));
        assertTrue(f.matches(Path.of("/data/state.json")));
    }

    @Test
    void shouldMatchNothing_whenIncludeIsEmpty() {
        PathFilter f = new PathFilter(List.of(), List.of());
        assertFalse(f.matches(Path.of("/data/state.json")));
    }

    @Test
    void shouldRejectByLiteralEndingBeforeTheGlob() {
        PathFilter f = new PathFilter(List.of("**/*.json", "/data/**/state.yaml"), List.of());
        assertTrue(f.mightMatch("jobs/1/doc.json"));
        assertTrue(f.mightMatch("/data/x/state.yaml"));
        assertFalse(f.mightMatch("jobs/1/doc.txt"));
        assertFalse(f.mightMatch("app.log"));
    }

    @Test
    void shouldNotPreRejectWhenAGlobEndsInAWildcard() {
        PathFilter f = new PathFilter(List.of("/data/**"), List.of());
        assertTrue(f.mightMatch("/anything/else.txt"));
        assertTrue(f.matches(Path.of("/data/x.txt")));
        assertFalse(f.matches(Path.of("/other/x.txt")));
    }
}
