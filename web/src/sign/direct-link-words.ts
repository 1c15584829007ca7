import type { Language } from '../../../server/src/i18n/index.js';

/**
 * What a template's direct link page (`/t/{token}`) says before the visitor reaches the signing
 * page. Only this page says it, so it lives with the page rather than in the server's catalogues;
 * the English labels are the ones decisions §11 names (`Your name`, `Your e-mail`, `Continue`).
 */
export type DirectLinkWords = {
  pageTitle: string;
  lede: string;
  yourName: string;
  yourEmail: string;
  emailHint: string;
  continue: string;
  opening: string;
  nameRequired: string;
  emailRequired: string;
  emailInvalid: string;
  invalidTitle: string;
  invalidBody: string;
  disabledTitle: string;
  disabledBody: string;
  busy: string;
  unavailable: string;
};

const en: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} asks you to sign this document. Enter your name and e-mail address to open it.',
  yourName: 'Your name',
  yourEmail: 'Your e-mail',
  emailHint: 'The signed copy is sent to this address.',
  continue: 'Continue',
  opening: 'Opening the document…',
  nameRequired: 'Enter your name.',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, such as name@example.com.',
  invalidTitle: 'This link is not valid',
  invalidBody:
    'Check that you opened the complete link. If it still does not work, ask whoever shared it with you.',
  disabledTitle: 'This link has been disabled',
  disabledBody:
    'Its owner no longer takes signatures through this link. Ask whoever shared it with you how to sign instead.',
  busy: 'This link has been used a lot lately, from here or with this e-mail address. Please try again in about {minutes} min.',
  unavailable: 'This link cannot be used right now. Please try again later, or contact {sender}.',
};

const de: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} bittet Sie, dieses Dokument zu unterschreiben. Geben Sie Ihren Namen und Ihre E-Mail-Adresse ein, um es zu öffnen.',
  yourName: 'Ihr Name',
  yourEmail: 'Ihre E-Mail',
  emailHint: 'Die unterschriebene Kopie wird an diese Adresse gesendet.',
  continue: 'Weiter',
  opening: 'Das Dokument wird geöffnet …',
  nameRequired: 'Geben Sie Ihren Namen ein.',
  emailRequired: 'Geben Sie Ihre E-Mail-Adresse ein.',
  emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.',
  invalidTitle: 'Dieser Link ist ungültig',
  invalidBody:
    'Prüfen Sie, ob Sie den vollständigen Link geöffnet haben. Funktioniert er weiterhin nicht, fragen Sie die Person, die ihn Ihnen gegeben hat.',
  disabledTitle: 'Dieser Link wurde deaktiviert',
  disabledBody:
    'Über diesen Link werden keine Unterschriften mehr angenommen. Fragen Sie die Person, die ihn Ihnen gegeben hat, wie Sie stattdessen unterschreiben können.',
  busy: 'Dieser Link wurde zuletzt sehr oft verwendet, von hier oder mit dieser E-Mail-Adresse. Bitte versuchen Sie es in etwa {minutes} Min. erneut.',
  unavailable:
    'Dieser Link kann gerade nicht verwendet werden. Bitte versuchen Sie es später erneut oder wenden Sie sich an {sender}.',
};

const fr: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} vous demande de signer ce document. Saisissez votre nom et votre adresse e-mail pour l’ouvrir.',
  yourName: 'Votre nom',
  yourEmail: 'Votre e-mail',
  emailHint: 'La copie signée est envoyée à cette adresse.',
  continue: 'Continuer',
  opening: 'Ouverture du document…',
  nameRequired: 'Saisissez votre nom.',
  emailRequired: 'Saisissez votre adresse e-mail.',
  emailInvalid: 'Saisissez une adresse e-mail valide, par exemple nom@example.com.',
  invalidTitle: 'Ce lien n’est pas valide',
  invalidBody:
    'Vérifiez que vous avez ouvert le lien complet. S’il ne fonctionne toujours pas, demandez à la personne qui vous l’a transmis.',
  disabledTitle: 'Ce lien a été désactivé',
  disabledBody:
    'Ce lien n’accepte plus de signatures. Demandez à la personne qui vous l’a transmis comment signer autrement.',
  busy: 'Ce lien a beaucoup servi ces derniers temps, depuis cet endroit ou avec cette adresse e-mail. Veuillez réessayer dans environ {minutes} min.',
  unavailable:
    'Ce lien ne peut pas être utilisé pour le moment. Veuillez réessayer plus tard ou contacter {sender}.',
};

const es: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} le pide que firme este documento. Escriba su nombre y su correo electrónico para abrirlo.',
  yourName: 'Su nombre',
  yourEmail: 'Su correo electrónico',
  emailHint: 'La copia firmada se envía a esta dirección.',
  continue: 'Continuar',
  opening: 'Abriendo el documento…',
  nameRequired: 'Escriba su nombre.',
  emailRequired: 'Escriba su dirección de correo electrónico.',
  emailInvalid: 'Escriba una dirección de correo válida, como nombre@example.com.',
  invalidTitle: 'Este enlace no es válido',
  invalidBody:
    'Compruebe que ha abierto el enlace completo. Si sigue sin funcionar, pregunte a quien se lo compartió.',
  disabledTitle: 'Este enlace se ha desactivado',
  disabledBody:
    'Este enlace ya no admite firmas. Pregunte a quien se lo compartió cómo firmar de otra manera.',
  busy: 'Este enlace se ha usado mucho últimamente, desde aquí o con esta dirección de correo. Inténtelo de nuevo dentro de unos {minutes} min.',
  unavailable:
    'Este enlace no se puede usar ahora. Inténtelo de nuevo más tarde o póngase en contacto con {sender}.',
};

const nl: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} vraagt u dit document te ondertekenen. Vul uw naam en e-mailadres in om het te openen.',
  yourName: 'Uw naam',
  yourEmail: 'Uw e-mail',
  emailHint: 'De ondertekende kopie wordt naar dit adres gestuurd.',
  continue: 'Doorgaan',
  opening: 'Het document wordt geopend…',
  nameRequired: 'Vul uw naam in.',
  emailRequired: 'Vul uw e-mailadres in.',
  emailInvalid: 'Vul een geldig e-mailadres in, zoals naam@example.com.',
  invalidTitle: 'Deze link is niet geldig',
  invalidBody:
    'Controleer of u de volledige link hebt geopend. Werkt hij dan nog niet, vraag het aan wie hem met u deelde.',
  disabledTitle: 'Deze link is uitgeschakeld',
  disabledBody:
    'Via deze link worden geen handtekeningen meer aangenomen. Vraag aan wie hem met u deelde hoe u anders kunt ondertekenen.',
  busy: 'Deze link is de laatste tijd vaak gebruikt, vanaf hier of met dit e-mailadres. Probeer het over ongeveer {minutes} min. opnieuw.',
  unavailable:
    'Deze link kan nu niet worden gebruikt. Probeer het later opnieuw of neem contact op met {sender}.',
};

/** The direct link page's words in every language Signet speaks. */
export const DIRECT_LINK_WORDS: Record<Language, DirectLinkWords> = { en, de, fr, es, nl };
