package dev.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Spool's public API is README's table ("Using the runtime library"): every public top-level type
 * of the runtime outside {@code dev.spool.internal} must be listed there or marked {@link Internal},
 * and every listed type must exist and be public. A class made public by accident fails here.
 */
class ApiSurfaceTest {

    private static final Pattern ROW = Pattern.compile("^\\| `(dev\\.spool[a-z.]*)` \\| (.*) \\|$");
    private static final Pattern NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)`");

    @Test
    void shouldListEveryPublicTypeOutsideInternalInReadmeOrMarkItInternal() throws Exception {
        Set<String> documented = readmeApi();
        Set<String> publicApi = new TreeSet<>();
        for (Class<?> c : runtimeTypes()) {
            if (Modifier.isPublic(c.getModifiers()) && !c.getPackageName().startsWith("dev.spool.internal")
                    && !c.isAnnotationPresent(Internal.class)) {
                publicApi.add(c.getName());
            }
        }
        assertEquals(documented, publicApi,
                "README's API table and the runtime's public, non-internal types differ");
    }

    @Test
    void shouldNotMarkListedApiInternal() throws Exception {
        for (String name : readmeApi()) {
            assertFalse(Class.forName(name).isAnnotationPresent(Internal.class), name + " is listed as API but marked @Internal");
        }
    }

    static Set<String> readmeApi() throws IOException {
        String readme = Files.readString(ReadmeExamplesTest.README);
        String table = readme.substring(readme.indexOf("**The API**"));
        Set<String> names = new TreeSet<>();
        for (String line : table.lines().takeWhile(l -> !l.startsWith("## ")).toList()) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) continue;
            Matcher name = NAME.matcher(row.group(2).replaceAll("\\([^)]*\\)", ""));
            while (name.find()) names.add(row.group(1) + "." + name.group(1));
        }
        return names;
    }

    static Set<Class<?>> runtimeTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Spool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<Class<?>> types = new java.util.HashSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String rel = root.relativize(f).toString();
                if (rel.contains("$") || rel.endsWith("package-info.class")) continue;
                String name = rel.substring(0, rel.length() - ".class".length()).replace(f.getFileSystem().getSeparator(), ".");
                types.add(Class.forName(name, false, ApiSurfaceTest.class.getClassLoader()));
            }
        }
        return types;
    }
}
