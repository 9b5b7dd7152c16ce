package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which paths concern a routed log ({@link LogFolders}): its folder, its archives' folder, nothing else. */
class LogFoldersTest {

    private static final Path ACTIVE = Path.of("/logs/app.log");

    @Test
    void shouldConcernTheActiveFilesFolderAndItsFilesOnly() {
        LogFolders f = LogFolders.of(ACTIVE, new Object());
        assertTrue(f.concerns(Path.of("/logs")));
        assertTrue(f.concerns(Path.of("/logs/app.log")));
        assertTrue(f.concerns(Path.of("/logs/app.1.log")));
        assertFalse(f.concerns(Path.of("/logs/sub/app.log")));
        assertFalse(f.concerns(Path.of("/")));
        assertFalse(f.concerns(Path.of("/data/x.json")));
    }

    @Test
    void shouldConcernALogbackRollingPolicysArchiveFolder() {
        LogFolders f = LogFolders.of(ACTIVE, appender("/archive/app-%d{yyyy-MM-dd}.%i.log.gz"));
        assertTrue(f.concerns(Path.of("/archive")));
        assertTrue(f.concerns(Path.of("/archive/app-2026-12-04.0.log.gz")));
        assertTrue(f.concerns(Path.of("/logs/app.log")));
        assertFalse(f.concerns(Path.of("/archive/old/app.log")));
    }

    @Test
    void shouldConcernEverythingUnderAnArchiveFolderWhosePatternMakesSubFolders() {
        LogFolders f = LogFolders.of(ACTIVE, appender("/archive/%d{yyyy/MM}/app.%i.log"));
        assertTrue(f.concerns(Path.of("/archive/2026/12/app.0.log")));
        assertTrue(f.concerns(Path.of("/archive/2026")));
        assertFalse(f.concerns(Path.of("/other/2026/12/app.0.log")));
    }

    private static RollingFileAppender<ILoggingEvent> appender(String pattern) {
        RollingFileAppender<ILoggingEvent> a = new RollingFileAppender<>();
        a.setContext(new LoggerContext());
        TimeBasedRollingPolicy<ILoggingEvent> p = new TimeBasedRollingPolicy<>();
        p.setFileNamePattern(pattern);
        a.setRollingPolicy(p);
        return a;
    }
}
