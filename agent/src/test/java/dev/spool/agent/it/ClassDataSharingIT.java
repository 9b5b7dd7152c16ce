package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent leaves class data sharing on: no "Sharing is only supported for boot loader classes"
 * warning, and a host's library classes still come from its AppCDS archive (dumped without the
 * agent) when the agent runs.
 */
class ClassDataSharingIT {

    static final String CDS_WARNING = "Sharing is only supported for boot loader classes";
    /** A Jackson class the agent never transforms, loaded by the application class loader. */
    static final String UNWOVEN_APP_CLASS = "com.fasterxml.jackson.core.JsonFactory ";

    @TempDir
    Path root;

    @Test
    void shouldKeepTheHostsAppCdsArchiveInUse_whenTheAgentRuns() throws Exception {
        Path archive = root.resolve("app.jsa");
        // CDS archives classes from jars only: the host goes into one, beside the Jackson jars
        String cp = hostJar() + Forked.hostClassPath(Forked.jackson()).substring(Forked.hostClassPath().length());
        Forked.start(root, "dump", List.of("-XX:ArchiveClassesAtExit=" + archive), cp, "dev.spool.agent.host.JsonHost",
                root.resolve("dump").toString(), "3", "3").awaitSuccess();
        assertTrue(Files.isRegularFile(archive), "the JVM wrote no archive");

        Path classLog = root.resolve("class-load.log");
        Forked host = Forked.start(root, "agent", LogRouteIT.concat(Forked.agentArgs(null),
                        "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info:file=" + classLog),
                cp, "dev.spool.agent.host.JsonHost", root.resolve("agent").toString(), "3", "3");
        host.awaitSuccess();
        assertFalse(host.err().contains(CDS_WARNING), host.describe());
        assertFalse(host.out().contains(CDS_WARNING), host.describe());
        String loads = Files.readString(classLog);
        assertTrue(loads.lines().anyMatch(l -> l.contains(UNWOVEN_APP_CLASS) && l.contains("shared objects file")),
                "JsonFactory not loaded from the archive: " + loads.lines().filter(l -> l.contains("JsonFactory")).toList());
        assertTrue(List.of().equals(Trees.spoolLines(host.err())), host.describe());
    }

    private Path hostJar() throws IOException {
        Path classes = Path.of(Forked.hostClassPath());
        Path jar = root.resolve("host.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes.resolve("dev/spool/agent/host"))) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }
}
