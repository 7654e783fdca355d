#include "CStoreKitCrypto.h"

#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

static X509 *skc_certificate(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    if (der == NULL || length == 0 || length > 65536) return NULL;
    X509 *certificate = d2i_X509(NULL, &cursor, (long)length);
    if (certificate != NULL && cursor != der + length) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

static int skc_has_extension(X509 *certificate, const char *oid) {
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    if (object == NULL) return 0;
    int found = X509_get_ext_by_OBJ(certificate, object, -1) >= 0;
    ASN1_OBJECT_free(object);
    return found;
}

static skc_result skc_verify_chain(X509 *leaf, X509 *intermediate, X509 *root) {
    skc_result result = SKC_INVALID_CHAIN;
    X509_STORE *store = X509_STORE_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (store == NULL || untrusted == NULL || context == NULL) goto done;
    if (X509_STORE_add_cert(store, root) != 1) goto done;
    if (sk_X509_push(untrusted, intermediate) <= 0) goto done;
    if (X509_STORE_CTX_init(context, store, leaf, untrusted) != 1) goto done;
    if (X509_verify_cert(context) != 1) goto done;
    if (!skc_has_extension(leaf, "1.2.840.113635.100.6.11.1")) goto done;
    if (!skc_has_extension(intermediate, "1.2.840.113635.100.6.2.1")) goto done;
    result = SKC_VERIFIED;
done:
    X509_STORE_CTX_free(context);
    sk_X509_free(untrusted);
    X509_STORE_free(store);
    return result;
}

static skc_result skc_verify_signature(X509 *leaf, const uint8_t *input, size_t input_length,
                                       const uint8_t *signature, size_t signature_length) {
    if (signature_length != 64) return SKC_INVALID_ENCODING;
    skc_result result = SKC_INVALID_SIGNATURE;
    unsigned char *der = NULL;
    EVP_MD_CTX *digest = NULL;
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, 32, NULL);
    BIGNUM *s = BN_bin2bn(signature + 32, 32, NULL);
    if (sig == NULL || r == NULL || s == NULL) {
        BN_free(r);
        BN_free(s);
        goto done;
    }
    if (ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        goto done;
    }
    int der_length = i2d_ECDSA_SIG(sig, &der);
    if (der_length <= 0) goto done;
    EVP_PKEY *key = X509_get0_pubkey(leaf);
    if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC || EVP_PKEY_get_bits(key) != 256) goto done;
    digest = EVP_MD_CTX_new();
    if (digest == NULL) goto done;
    if (EVP_DigestVerifyInit(digest, NULL, EVP_sha256(), NULL, key) != 1) goto done;
    if (EVP_DigestVerify(digest, der, (size_t)der_length, input, input_length) == 1) result = SKC_VERIFIED;
done:
    EVP_MD_CTX_free(digest);
    OPENSSL_free(der);
    ECDSA_SIG_free(sig);
    return result;
}

skc_result skc_verify_es256_chain(
    const uint8_t *leaf_der, size_t leaf_length,
    const uint8_t *intermediate_der, size_t intermediate_length,
    const uint8_t *root_der, size_t root_length,
    const uint8_t *signing_input, size_t signing_input_length,
    const uint8_t *signature, size_t signature_length) {
    X509 *leaf = skc_certificate(leaf_der, leaf_length);
    X509 *intermediate = skc_certificate(intermediate_der, intermediate_length);
    X509 *root = skc_certificate(root_der, root_length);
    skc_result result = SKC_INVALID_ENCODING;
    if (leaf != NULL && intermediate != NULL && root != NULL) {
        result = skc_verify_chain(leaf, intermediate, root);
        if (result == SKC_VERIFIED) {
            result = skc_verify_signature(leaf, signing_input, signing_input_length, signature, signature_length);
        }
    }
    X509_free(leaf);
    X509_free(intermediate);
    X509_free(root);
    return result;
}
