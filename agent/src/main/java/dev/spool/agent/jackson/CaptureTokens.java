package dev.spool.agent.jackson;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.FormatSchema;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.InputStream;

/**
 * The {@code TokenBuffer} a write is captured into, watching what the serializers do with it.
 * A replay at the flush reproduces the tokens, not what a serializer did to or learned from its
 * generator; so once {@link #arm armed} (after the writer configured it, before the first
 * serializer runs), any call whose effect or answer the replay cannot reproduce marks the capture
 * {@link #unproven} with a reason, and the write is encoded at the call by the host's own writer:
 * <ul>
 *   <li>a change of the generator: features, character escapes, pretty printer, schema, root
 *       separator, codec (D; and C: {@code gen.writeObject} under a mapper with INDENT_OUTPUT sets
 *       a pretty printer on the writer's generator);</li>
 *   <li>a question only the real generator answers: its output target and buffer, escapes'
 *       highest char, format features (J);</li>
 *   <li>binary in another Base64 variant than the replay's default (A), raw text that is not a
 *       value, pre-encoded UTF-8 (which a TokenBuffer refuses).</li>
 * </ul>
 * A {@code byte[]} handed over by reference ({@code writeObject}, {@code writeEmbeddedObject}) is
 * copied (K): the host may change it after the call. {@code canWriteBinaryNatively} answers as a
 * JSON generator does (false), as do Jackson's own serializers expect of a text format.
 *
 * <p>Host-side like {@link HostOps} ({@link HostOpsLoader} defines it): JDK and Jackson only. One
 * per capture, on the caller's thread; not thread-safe.
 */
final class CaptureTokens extends TokenBuffer {
    private static final long serialVersionUID = 1L;

    private boolean armed;
    /** Why the tokens cannot stand for the write (null: they can). */
    private String unproven;

    CaptureTokens(ObjectCodec codec) {
        super(codec, false);
    }

    /** From now on, the serializers run: what they do to the generator is watched. */
    void arm() {
        armed = true;
    }

    /** What the serializers threw (the tokens hold what they wrote before), or null. */
    private Exception failure;

    void failed(Exception e) {
        failure = e;
    }

    Exception failure() {
        return failure;
    }

    /** Why these tokens cannot be replayed as the write, or null. */
    String unproven() {
        return unproven;
    }

    /** A change or question the configuration of the writer makes too: only the serializers' count. */
    private void touched(String reason) {
        if (armed) {
            refused(reason);
        }
    }

    /** Something the tokens cannot hold, whoever asks. */
    void refused(String reason) {
        if (unproven == null) {
            unproven = reason;
        }
    }

    @Override
    public JsonGenerator setPrettyPrinter(PrettyPrinter pp) {
        touched("serializer-changed-generator");
        return super.setPrettyPrinter(pp);
    }

    @Override
    public JsonGenerator useDefaultPrettyPrinter() {
        touched("serializer-changed-generator");
        return super.useDefaultPrettyPrinter();
    }

    @Override
    public JsonGenerator setCharacterEscapes(CharacterEscapes esc) {
        touched("serializer-changed-generator");
        return super.setCharacterEscapes(esc);
    }

    @Override
    public JsonGenerator setHighestNonEscapedChar(int charCode) {
        touched("serializer-changed-generator");
        return super.setHighestNonEscapedChar(charCode);
    }

    @Override
    public JsonGenerator enable(Feature f) {
        touched("serializer-changed-generator");
        return super.enable(f);
    }

    @Override
    public JsonGenerator disable(Feature f) {
        touched("serializer-changed-generator");
        return super.disable(f);
    }

    @Override
    @Deprecated
    public JsonGenerator setFeatureMask(int mask) {
        touched("serializer-changed-generator");
        return super.setFeatureMask(mask);
    }

    @Override
    public JsonGenerator overrideStdFeatures(int values, int mask) {
        touched("serializer-changed-generator");
        return super.overrideStdFeatures(values, mask);
    }

    @Override
    public JsonGenerator overrideFormatFeatures(int values, int mask) {
        touched("serializer-changed-generator");
        return super.overrideFormatFeatures(values, mask);
    }

    @Override
    public void setSchema(FormatSchema schema) {
        touched("serializer-changed-generator");
        super.setSchema(schema);
    }

    @Override
    public JsonGenerator setRootValueSeparator(SerializableString sep) {
        touched("serializer-changed-generator");
        return super.setRootValueSeparator(sep);
    }

    @Override
    public JsonGenerator setCodec(ObjectCodec oc) {
        touched("serializer-changed-generator");
        return super.setCodec(oc);
    }

    @Override
    public Object getOutputTarget() {
        touched("serializer-inspected-generator");
        return super.getOutputTarget();
    }

    @Override
    public int getOutputBuffered() {
        touched("serializer-inspected-generator");
        return super.getOutputBuffered();
    }

    @Override
    public int getHighestEscapedChar() {
        touched("serializer-inspected-generator");
        return super.getHighestEscapedChar();
    }

    @Override
    public int getFormatFeatures() {
        touched("serializer-inspected-generator");
        return super.getFormatFeatures();
    }

    @Override
    public boolean canWriteBinaryNatively() {
        return false; // what the JSON generator answers: binary goes as Base64 text
    }

    @Override
    public void writeBinary(Base64Variant variant, byte[] data, int offset, int len) throws IOException {
        if (variant != Base64Variants.getDefaultVariant()) {
            refused("base64-variant");
        }
        super.writeBinary(variant, data, offset, len); // copies
    }

    @Override
    public int writeBinary(Base64Variant variant, InputStream data, int dataLength) {
        if (variant != Base64Variants.getDefaultVariant()) {
            refused("base64-variant");
        }
        return super.writeBinary(variant, data, dataLength);
    }

    @Override
    public void writeObject(Object value) throws IOException {
        if (value instanceof byte[] b) {
            // a real generator hands it to its codec, whose Base64 variant applies; the replay uses the default
            if (!(getCodec() instanceof ObjectMapper m)
                    || m.getSerializationConfig().getBase64Variant() != Base64Variants.getDefaultVariant()) {
                refused("base64-variant");
            }
            super.writeObject(b.clone());
            return;
        }
        super.writeObject(value);
    }

    @Override
    public void writeEmbeddedObject(Object value) throws IOException {
        super.writeEmbeddedObject(value instanceof byte[] b ? b.clone() : value);
    }

    @Override
    public void writeRaw(String text) throws IOException {
        refused("serializer-wrote-raw");
    }

    @Override
    public void writeRaw(String text, int offset, int len) throws IOException {
        refused("serializer-wrote-raw");
    }

    @Override
    public void writeRaw(SerializableString text) throws IOException {
        refused("serializer-wrote-raw");
    }

    @Override
    public void writeRaw(char[] text, int offset, int len) throws IOException {
        refused("serializer-wrote-raw");
    }

    @Override
    public void writeRaw(char c) throws IOException {
        refused("serializer-wrote-raw");
    }

    @Override
    public void writeRawUTF8String(byte[] text, int offset, int length) throws IOException {
        refused("serializer-wrote-utf8");
    }

    @Override
    public void writeUTF8String(byte[] text, int offset, int length) throws IOException {
        refused("serializer-wrote-utf8");
    }
}
