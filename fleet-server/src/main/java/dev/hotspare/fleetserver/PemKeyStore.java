package dev.hotspare.fleetserver;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key store made from PEM files, as a certificate authority or cert-manager hands them out: the certificate
 * chain ({@code BEGIN CERTIFICATE} blocks, the server's first) and an unencrypted PKCS#8 private key ({@code BEGIN
 * PRIVATE KEY}, RSA or EC). Bad files are named with what is wrong, never with the key's content.
 */
final class PemKeyStore {

    /** The in-memory store's password: it never leaves the process. */
    static final char[] PASSWORD = "hotspare".toCharArray();

    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private PemKeyStore() {
    }

    /**
     * The key store holding {@code key} with the chain of {@code certificate}.
     *
     * @param certificate the certificate chain file ({@code --tls-cert})
     * @param key         the private key file ({@code --tls-key})
     * @return a PKCS#12 key store with one entry
     * @throws ValidationException naming the file and what is wrong with it
     */
    static KeyStore load(Path certificate, Path key) {
        List<Certificate> chain;
        try {
            chain = List.copyOf(CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(read("--tls-cert", certificate))));
        } catch (CertificateException e) {
            throw new ValidationException(Problem.of("--tls-cert", certificate, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
        }
        if (chain.isEmpty()) {
            throw new ValidationException(Problem.of("--tls-cert", certificate, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
        }
        String text = new String(read("--tls-key", key), StandardCharsets.US_ASCII);
        Matcher m = PRIVATE_KEY.matcher(text);
        if (!m.find()) {
            throw new ValidationException(Problem.of("--tls-key", key, text.contains("BEGIN RSA PRIVATE KEY") || text.contains("BEGIN EC PRIVATE KEY")
                    ? "holds a PKCS#1 / SEC1 key; convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8"
                    : "holds no unencrypted PKCS#8 private key (-----BEGIN PRIVATE KEY-----)"));
        }
        PKCS8EncodedKeySpec spec;
        try {
            spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1)));
        } catch (IllegalArgumentException e) {
            throw new ValidationException(Problem.of("--tls-key", key, "its private key is not valid base64"));
        }
        PrivateKey privateKey = null;
        for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
            try {
                privateKey = KeyFactory.getInstance(algorithm).generatePrivate(spec);
                break;
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        if (privateKey == null) {
            throw new ValidationException(Problem.of("--tls-key", key, "its private key is not an RSA, EC or Ed25519 key"));
        }
        if (!chain.get(0).getPublicKey().getAlgorithm().equals(privateKey.getAlgorithm())
                && !(privateKey.getAlgorithm().equals("EdDSA") || privateKey.getAlgorithm().equals("Ed25519"))) {
            throw new ValidationException(Problem.of("--tls-key", key, "is a " + privateKey.getAlgorithm()
                    + " key but the certificate's is " + chain.get(0).getPublicKey().getAlgorithm()));
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("fleet-server", privateKey, PASSWORD, chain.toArray(Certificate[]::new));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new ValidationException(Problem.of("--tls-key", key, "does not go with the certificate in the --tls-cert file"));
        }
    }

    private static byte[] read(String flag, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ValidationException(Problem.of(flag, file, "no such file"));
        } catch (IOException e) {
            throw new ValidationException(Problem.of(flag, file, "cannot be read"));
        }
    }
}
