import type { Language } from '../../../server/src/i18n/index.js';

/**
 * What the signing page says while its link asks for a code (decisions §13). Only this page
 * says it, so it lives with the page, as the direct link's words do.
 */
export type AuthWords = {
  title: string;
  accessCodeLede: string;
  accessCodeLabel: string;
  emailLede: string;
  sendCode: string;
  sending: string;
  codeSent: string;
  codeLabel: string;
  codeHint: string;
  sendAgain: string;
  sendAgainIn: string;
  open: string;
  checking: string;
  codeRequired: string;
  codeFormat: string;
  wrongCode: string;
  wrongCodeLast: string;
  locked: string;
  sendLimited: string;
  identityRefused: string;
  opening: string;
};

const en: AuthWords = {
  title: 'Confirm it is you',
  accessCodeLede: 'To open this document, enter the access code its sender gave you.',
  accessCodeLabel: 'Access code',
  emailLede:
    'To open this document, ask for a code: we e-mail it to the address this document was sent to.',
  sendCode: 'Send me a code',
  sending: 'Sending…',
  codeSent: 'We sent a 6-digit code to your e-mail address. It works for 10 minutes.',
  codeLabel: 'Code from the e-mail',
  codeHint: '6 digits',
  sendAgain: 'Send a new code',
  sendAgainIn: 'You can ask for a new code in {seconds} s.',
  open: 'Open the document',
  checking: 'Checking…',
  codeRequired: 'Enter the code.',
  codeFormat: 'The code has 6 digits.',
  wrongCode: 'That code is not right. Attempts left: {n}.',
  wrongCodeLast: 'That code is not right. One attempt left before the link is locked.',
  locked:
    'Too many wrong codes: this link is locked for now. Try again in {minutes} min, or ask the sender for help.',
  sendLimited: 'A code was sent recently. You can ask for another in {minutes} min.',
  identityRefused:
    'The link you followed could not confirm who you are, so this document asks for a code.',
  opening: 'Opening the document…',
};

const de: AuthWords = {
  title: 'Bestätigen Sie, dass Sie es sind',
  accessCodeLede:
    'Geben Sie den Zugangscode ein, den Ihnen der Absender gegeben hat, um dieses Dokument zu öffnen.',
  accessCodeLabel: 'Zugangscode',
  emailLede:
    'Fordern Sie einen Code an, um dieses Dokument zu öffnen: Wir senden ihn an die Adresse, an die das Dokument ging.',
  sendCode: 'Code senden',
  sending: 'Wird gesendet …',
  codeSent: 'Wir haben einen 6-stelligen Code an Ihre E-Mail-Adresse gesendet. Er gilt 10 Minuten.',
  codeLabel: 'Code aus der E-Mail',
  codeHint: '6 Ziffern',
  sendAgain: 'Neuen Code senden',
  sendAgainIn: 'Einen neuen Code können Sie in {seconds} s anfordern.',
  open: 'Dokument öffnen',
  checking: 'Wird geprüft …',
  codeRequired: 'Geben Sie den Code ein.',
  codeFormat: 'Der Code hat 6 Ziffern.',
  wrongCode: 'Dieser Code stimmt nicht. Verbleibende Versuche: {n}.',
  wrongCodeLast: 'Dieser Code stimmt nicht. Noch ein Versuch, dann wird der Link gesperrt.',
  locked:
    'Zu viele falsche Codes: Dieser Link ist vorerst gesperrt. Versuchen Sie es in {minutes} Min. erneut oder bitten Sie den Absender um Hilfe.',
  sendLimited:
    'Es wurde gerade ein Code gesendet. Einen weiteren können Sie in {minutes} Min. anfordern.',
  identityRefused:
    'Der Link, dem Sie gefolgt sind, konnte nicht bestätigen, wer Sie sind; deshalb verlangt dieses Dokument einen Code.',
  opening: 'Das Dokument wird geöffnet …',
};

const fr: AuthWords = {
  title: 'Confirmez qu’il s’agit bien de vous',
  accessCodeLede:
    'Pour ouvrir ce document, saisissez le code d’accès que son expéditeur vous a donné.',
  accessCodeLabel: 'Code d’accès',
  emailLede:
    'Pour ouvrir ce document, demandez un code : nous l’envoyons à l’adresse à laquelle ce document a été envoyé.',
  sendCode: 'M’envoyer un code',
  sending: 'Envoi…',
  codeSent:
    'Nous avons envoyé un code à 6 chiffres à votre adresse e-mail. Il est valable 10 minutes.',
  codeLabel: 'Code reçu par e-mail',
  codeHint: '6 chiffres',
  sendAgain: 'Envoyer un nouveau code',
  sendAgainIn: 'Vous pourrez demander un nouveau code dans {seconds} s.',
  open: 'Ouvrir le document',
  checking: 'Vérification…',
  codeRequired: 'Saisissez le code.',
  codeFormat: 'Le code comporte 6 chiffres.',
  wrongCode: 'Ce code n’est pas le bon. Essais restants : {n}.',
  wrongCodeLast: 'Ce code n’est pas le bon. Il reste un essai avant le blocage du lien.',
  locked:
    'Trop de codes erronés : ce lien est bloqué pour le moment. Réessayez dans {minutes} min ou demandez de l’aide à l’expéditeur.',
  sendLimited: 'Un code vient d’être envoyé. Vous pourrez en demander un autre dans {minutes} min.',
  identityRefused:
    'Le lien que vous avez suivi n’a pas pu confirmer votre identité ; ce document demande donc un code.',
  opening: 'Ouverture du document…',
};

const es: AuthWords = {
  title: 'Confirme que es usted',
  accessCodeLede:
    'Para abrir este documento, introduzca el código de acceso que le dio su remitente.',
  accessCodeLabel: 'Código de acceso',
  emailLede:
    'Para abrir este documento, pida un código: lo enviamos a la dirección a la que se envió este documento.',
  sendCode: 'Enviarme un código',
  sending: 'Enviando…',
  codeSent: 'Le hemos enviado un código de 6 dígitos por correo. Sirve durante 10 minutos.',
  codeLabel: 'Código del correo',
  codeHint: '6 dígitos',
  sendAgain: 'Enviar un código nuevo',
  sendAgainIn: 'Podrá pedir un código nuevo dentro de {seconds} s.',
  open: 'Abrir el documento',
  checking: 'Comprobando…',
  codeRequired: 'Introduzca el código.',
  codeFormat: 'El código tiene 6 dígitos.',
  wrongCode: 'Ese código no es correcto. Intentos restantes: {n}.',
  wrongCodeLast: 'Ese código no es correcto. Queda un intento antes de que se bloquee el enlace.',
  locked:
    'Demasiados códigos incorrectos: este enlace está bloqueado por ahora. Inténtelo de nuevo en {minutes} min o pida ayuda al remitente.',
  sendLimited: 'Se acaba de enviar un código. Podrá pedir otro dentro de {minutes} min.',
  identityRefused:
    'El enlace que siguió no pudo confirmar quién es usted, por lo que este documento pide un código.',
  opening: 'Abriendo el documento…',
};

const nl: AuthWords = {
  title: 'Bevestig dat u het bent',
  accessCodeLede: 'Voer de toegangscode in die de afzender u gaf om dit document te openen.',
  accessCodeLabel: 'Toegangscode',
  emailLede:
    'Vraag een code aan om dit document te openen: we e-mailen die naar het adres waarnaar dit document is gestuurd.',
  sendCode: 'Stuur mij een code',
  sending: 'Bezig met verzenden…',
  codeSent: 'We hebben een code van 6 cijfers naar uw e-mailadres gestuurd. Hij werkt 10 minuten.',
  codeLabel: 'Code uit de e-mail',
  codeHint: '6 cijfers',
  sendAgain: 'Stuur een nieuwe code',
  sendAgainIn: 'Over {seconds} s kunt u een nieuwe code aanvragen.',
  open: 'Document openen',
  checking: 'Bezig met controleren…',
  codeRequired: 'Voer de code in.',
  codeFormat: 'De code heeft 6 cijfers.',
  wrongCode: 'Die code klopt niet. Resterende pogingen: {n}.',
  wrongCodeLast: 'Die code klopt niet. Nog één poging voordat de link wordt geblokkeerd.',
  locked:
    'Te veel verkeerde codes: deze link is voorlopig geblokkeerd. Probeer het over {minutes} min opnieuw of vraag de afzender om hulp.',
  sendLimited: 'Er is net een code gestuurd. Over {minutes} min kunt u een nieuwe aanvragen.',
  identityRefused:
    'De link die u volgde kon niet bevestigen wie u bent, daarom vraagt dit document om een code.',
  opening: 'Het document wordt geopend…',
};

/** The verification form's words in each of the page's languages. */
export const AUTH_WORDS: Record<Language, AuthWords> = { en, de, fr, es, nl };
